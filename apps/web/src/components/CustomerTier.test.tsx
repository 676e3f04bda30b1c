import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TIER_STANDING_TEXTS } from '@kanak/contract';
import { CustomerTier } from './CustomerTier';

const texts = TIER_STANDING_TEXTS;

describe('a customer’s tier', () => {
  it('shows the tier, the 12-month spend and what the next tier takes; nothing without tiers', () => {
    const { container, rerender } = render(
      <CustomerTier
        standing={{
          tier: 'GOLD',
          tierName: 'Gold',
          spend12m: 250000.5,
          nextTier: 'PLAT',
          toNextTier: 249999.5,
        }}
      />,
    );
    expect(screen.getByText('Gold')).toBeInTheDocument();
    expect(screen.getByText(texts.spend12m('₹2,50,000.50'))).toBeInTheDocument();
    expect(container).toHaveTextContent(texts.toNext('₹2,49,999.50', 'PLAT'));

    // No tier yet, spend already past the first threshold (tiers set after the sales).
    rerender(
      <CustomerTier
        standing={{
          tier: null,
          tierName: null,
          spend12m: 60000,
          nextTier: 'SILVER',
          toNextTier: 0,
        }}
      />,
    );
    expect(screen.getByText(texts.noTier)).toBeInTheDocument();
    expect(container).toHaveTextContent(texts.nextSaleReaches('SILVER'));

    // The top tier: nothing further to reach.
    rerender(
      <CustomerTier
        standing={{
          tier: 'PLAT',
          tierName: 'Platinum',
          spend12m: 900000,
          nextTier: null,
          toNextTier: null,
        }}
      />,
    );
    expect(screen.getByText('Platinum')).toBeInTheDocument();
    expect(container).not.toHaveTextContent(/more to reach|next sale/);

    // No tiers set: the look-up leaves the fields out, and so does the screen.
    rerender(<CustomerTier standing={{}} />);
    expect(container).toBeEmptyDOMElement();
  });
});
