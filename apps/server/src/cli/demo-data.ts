/**
 * Realistic Indian customer data from a seeded generator: the same seed gives the same data,
 * so demo screenshots and benchmark runs can be compared.
 */
import { installmentDueOn, standardMaturity, type CustomerRecord } from '@kanak/contract';

const FIRST = [
  'Aarav',
  'Aditi',
  'Akash',
  'Ananya',
  'Anil',
  'Anita',
  'Arjun',
  'Asha',
  'Deepak',
  'Divya',
  'Gaurav',
  'Geeta',
  'Harish',
  'Isha',
  'Jaya',
  'Karan',
  'Kavita',
  'Lakshmi',
  'Mahesh',
  'Meena',
  'Mohan',
  'Neha',
  'Nikhil',
  'Pooja',
  'Prakash',
  'Priya',
  'Rahul',
  'Rajesh',
  'Ramesh',
  'Rekha',
  'Rohit',
  'Sangeeta',
  'Sanjay',
  'Sarita',
  'Shalini',
  'Suresh',
  'Sunita',
  'Swati',
  'Tanvi',
  'Uma',
  'Varun',
  'Vijay',
  'Vinita',
  'Yash',
  'Zoya',
  'Farhan',
  'Imran',
  'Gurpreet',
  'Harpreet',
  'Joseph',
];
const LAST = [
  'Agarwal',
  'Bhat',
  'Chopra',
  'Desai',
  'Gupta',
  'Iyer',
  'Jain',
  'Joshi',
  'Kapoor',
  'Khan',
  'Kulkarni',
  'Kumar',
  'Mehta',
  'Menon',
  'Mishra',
  'Nair',
  'Patel',
  'Patil',
  'Pillai',
  'Rao',
  'Reddy',
  'Sethi',
  'Shah',
  'Sharma',
  'Shetty',
  'Singh',
  'Soni',
  'Thakur',
  'Verma',
  'Zaveri',
];
const PLACES: [city: string, state: string, pin: string][] = [
  ['Mumbai', 'Maharashtra', '400'],
  ['Pune', 'Maharashtra', '411'],
  ['Ahmedabad', 'Gujarat', '380'],
  ['Surat', 'Gujarat', '395'],
  ['Jaipur', 'Rajasthan', '302'],
  ['Delhi', 'Delhi', '110'],
  ['Bengaluru', 'Karnataka', '560'],
  ['Chennai', 'Tamil Nadu', '600'],
  ['Kochi', 'Kerala', '682'],
  ['Hyderabad', 'Telangana', '500'],
  ['Kolkata', 'West Bengal', '700'],
  ['Lucknow', 'Uttar Pradesh', '226'],
];
const STREETS = [
  'MG Road',
  'Station Road',
  'Zaveri Bazaar',
  'Gandhi Nagar',
  'Nehru Chowk',
  'Market Yard',
  'Civil Lines',
  'Lake View',
];
const PURCHASES = [
  'Gold chain',
  'Bangles',
  'Mangalsutra',
  'Diamond ring',
  'Silver anklets',
  'Gold earrings',
  'Necklace set',
  'Coin 10 g',
];

/** mulberry32: small, fast, good enough for test data. */
export function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
  };
}
export type Random = ReturnType<typeof random>;

/** A customer's profile as the customers table takes it (no anniversary, Aadhaar or PAN). */
export type DemoCustomer = Pick<
  CustomerRecord,
  'mobileno' | 'custname' | 'email' | 'address' | 'city' | 'pincode' | 'state'
> & { dob: string | null };

/** The n-th customer; mobile numbers are unique by construction (6–9 then n, zero-padded). */
export function demoCustomer(rng: Random, n: number): DemoCustomer {
  const first = rng.pick(FIRST);
  const last = rng.pick(LAST);
  const [city, state, pin] = rng.pick(PLACES);
  const year = rng.int(1955, 2002);
  return {
    mobileno: `${6 + (n % 4)}${String(n).padStart(9, '0')}`,
    custname: `${first} ${last}`,
    email: rng.next() < 0.6 ? `${first}.${last}${rng.int(1, 99)}@example.in`.toLowerCase() : '',
    address: `${rng.int(1, 250)}, ${rng.pick(STREETS)}`,
    city,
    pincode: `${pin}${String(rng.int(1, 99)).padStart(3, '0')}`,
    state,
    dob:
      rng.next() < 0.7
        ? `${year}-${String(rng.int(1, 12)).padStart(2, '0')}-${String(rng.int(1, 28)).padStart(2, '0')}`
        : null,
  };
}

export interface DemoEntry {
  invdate: string;
  narration: string;
  saleAmountPaise: number;
  credit: number;
  debit: number;
  source: 'M' | 'S';
}

/**
 * About a year of ledger for one customer: sales earning 1 point per ₹100, manual bonuses and
 * redemptions that never exceed the balance. Dates ascend, ending on or before `today`.
 */
export function demoLedger(rng: Random, count: number, today: string): DemoEntry[] {
  const end = Date.parse(`${today}T00:00:00Z`);
  const dates = Array.from({ length: count }, () => end - rng.int(0, 364) * 86_400_000).sort(
    (a, b) => a - b,
  );
  let balance = 0;
  return dates.map((time) => {
    const invdate = new Date(time).toISOString().slice(0, 10);
    const roll = rng.next();
    if (roll < 0.7 || balance < 50) {
      const rupees = rng.int(2_000, 250_000);
      const credit = Math.floor(rupees / 100);
      balance += credit;
      return {
        invdate,
        narration: `Sale: ${rng.pick(PURCHASES)}`,
        saleAmountPaise: rupees * 100 + rng.int(0, 99),
        credit,
        debit: 0,
        source: 'S',
      };
    }
    if (roll < 0.85) {
      const credit = rng.pick([50, 100, 250, 500]);
      balance += credit;
      return {
        invdate,
        narration: rng.pick(['Festival bonus', 'Birthday bonus', 'Referral bonus']),
        saleAmountPaise: 0,
        credit,
        debit: 0,
        source: 'M',
      };
    }
    const debit = rng.int(1, Math.min(balance, 2_000));
    balance -= debit;
    return {
      invdate,
      narration: 'Points redeemed',
      saleAmountPaise: 0,
      credit: 0,
      debit,
      source: 'M',
    };
  });
}

export interface DemoScheme {
  startdt: string;
  matdt: string;
  amount: number;
  status: 'n' | 'a' | 'm' | 'x';
  /** Installment dates, one a month from the start, never after today. */
  paidOn: string[];
  mode: () => 'cash' | 'upi' | 'card' | 'bank' | 'cheque';
}

const SCHEME_AMOUNTS = [1000, 2000, 2500, 3000, 5000, 7500, 10000, 15000];

/**
 * A scheme started within the last three years: older than its term -> Completed with every
 * month paid; younger -> mostly Active with the months so far paid, some Inactive or cancelled.
 */
export function demoScheme(rng: Random, today: string, installments: number): DemoScheme {
  const todayTime = Date.parse(`${today}T00:00:00Z`);
  const start = new Date(todayTime - rng.int(0, 3 * 365) * 86_400_000);
  start.setUTCDate(Math.min(start.getUTCDate(), 28));
  const startdt = start.toISOString().slice(0, 10);
  const matdt = standardMaturity(startdt);
  const roll = rng.next();
  const status: DemoScheme['status'] =
    matdt < today ? 'm' : roll < 0.15 ? 'n' : roll < 0.2 ? 'x' : 'a';
  const paidOn: string[] = [];
  if (status === 'a' || status === 'm') {
    for (let k = 0; k < installments; k++) {
      const due = installmentDueOn(startdt, k);
      if (due > today || due > matdt) break;
      paidOn.push(due);
    }
  }
  return {
    startdt,
    matdt,
    amount: rng.pick(SCHEME_AMOUNTS),
    status,
    paidOn,
    mode: () => rng.pick(['cash', 'upi', 'upi', 'card', 'bank', 'cheque'] as const),
  };
}
