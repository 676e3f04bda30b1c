/**
 * Razorpay's Standard Checkout, as documented: its script defines `Razorpay`;
 * `new Razorpay(options).open()` shows the payment page; `handler` gets the three razorpay_*
 * fields once paid; `modal.ondismiss` runs when the customer closes it unpaid.
 */
export interface CheckoutResponse {
  razorpay_payment_id: string;
  razorpay_order_id: string;
  razorpay_signature: string;
}

export interface CheckoutOptions {
  key: string;
  amount: number;
  currency: string;
  order_id: string;
  name: string;
  description?: string;
  handler: (response: CheckoutResponse) => void;
  modal: { ondismiss: () => void };
}

interface Checkout {
  open(): void;
}

declare global {
  interface Window {
    Razorpay?: new (options: CheckoutOptions) => Checkout;
  }
}

const loading = new Map<string, Promise<void>>();

/** Loads the checkout script from `url` once; a failed load is tried again next time. */
export function loadCheckout(url: string): Promise<void> {
  if (window.Razorpay) return Promise.resolve();
  let promise = loading.get(url);
  if (!promise) {
    promise = new Promise<void>((resolve, reject) => {
      const script = document.createElement('script');
      script.src = url;
      script.async = true;
      script.onload = () => (window.Razorpay ? resolve() : reject(new Error('no Razorpay')));
      script.onerror = () => {
        script.remove();
        reject(new Error('checkout script not loaded'));
      };
      document.head.appendChild(script);
    });
    promise.catch(() => loading.delete(url));
    loading.set(url, promise);
  }
  return promise;
}

/** Opens the checkout; answers what the customer did: paid (with the gateway's fields) or not. */
export async function openCheckout(
  url: string,
  options: Omit<CheckoutOptions, 'handler' | 'modal'>,
): Promise<CheckoutResponse | null> {
  await loadCheckout(url);
  const Razorpay = window.Razorpay!;
  return new Promise((resolve) => {
    new Razorpay({
      ...options,
      handler: (response) => resolve(response),
      modal: { ondismiss: () => resolve(null) },
    }).open();
  });
}
