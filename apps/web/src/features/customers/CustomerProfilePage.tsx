import { useEffect, useState } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { CustomerTier } from '../../components/CustomerTier';
import { PointsWorth } from '../../components/PointsWorth';
import {
  POINTS_SUMMARY_TEXTS,
  PAGE_TITLES,
  type CustomerDataExport,
  type CustomerProfile,
} from '@kanak/contract';
import { PageHeader } from '../../components/PageHeader';
import { redeemTermsQuery } from '../../lib/redeem-terms';
import { CustomerDataRights } from './CustomerDataRights';
import { CustomerProfileForm } from './CustomerProfileForm';
import { CustomerTierByHand } from './CustomerTierByHand';
import { PrintCustomerData } from './PrintCustomerData';

/**
 * Customer Profile (/home/customer-profile): create or update a customer; for a customer on
 * the form, their consents, a copy of their data, and erasure.
 */
export function CustomerProfilePage() {
  const [customer, setCustomer] = useState<CustomerProfile | null>(null);
  // A new key starts the form over (after an erasure).
  const [formKey, setFormKey] = useState(0);
  const [printing, setPrinting] = useState<CustomerDataExport | null>(null);
  // Where the customer stands (their tier), when tiers are set.
  const terms = useQuery(redeemTermsQuery(customer?.mobileno ?? ''));

  // The copy is on the page (hidden on screen): print it once it has rendered.
  useEffect(() => {
    if (printing) window.print();
  }, [printing]);

  return (
    <>
      <Box className="no-print">
        <PageHeader title={PAGE_TITLES.customerProfile} />
        <CustomerProfileForm key={formKey} onCustomer={setCustomer} />
        {customer && (
          <Box
            role="status"
            aria-label={POINTS_SUMMARY_TEXTS.label}
            sx={{ mt: 2, display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center' }}
          >
            <Typography variant="body2" color="text.secondary">
              {POINTS_SUMMARY_TEXTS.label}:
            </Typography>
            <Typography component="span" sx={{ fontWeight: 700 }}>
              {POINTS_SUMMARY_TEXTS.balance(customer.points.toLocaleString('en-IN'))}
            </Typography>
            <PointsWorth summary={customer} />
          </Box>
        )}
        {customer && terms.data?.spend12m !== undefined && (
          <Box sx={{ mt: 1, display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
            <CustomerTier standing={terms.data} />
            <CustomerTierByHand custid={customer.custid} />
          </Box>
        )}
        {customer && (
          <CustomerDataRights
            key={customer.custid}
            customer={customer}
            onConsents={(consents) => setCustomer({ ...customer, ...consents })}
            onErased={() => {
              setCustomer(null);
              setPrinting(null);
              setFormKey((key) => key + 1);
            }}
            onPrint={(data) => setPrinting({ ...data })}
          />
        )}
      </Box>
      {printing && customer && printing.profile.custid === customer.custid && (
        <PrintCustomerData data={printing} />
      )}
    </>
  );
}
