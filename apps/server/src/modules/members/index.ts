/** What other modules may use of the members module; the rest is its own. */
export type { MembersService } from './members.service.js';
export type { MemberPayments } from './members.payments.js';
export { gatewaySetUp } from './razorpay.js';
export {
  createGatewaySettlements,
  GatewaySettlementsError,
  type GatewayFailure,
  type GatewaySettlement,
  type GatewaySettlements,
  type SettlementContents,
} from './members.settlements.js';
