import { groupedCount, type NoticeTexts } from './words.js';

/** Gujarati, in the આપ-form; "સ્કીમ", "હપ્તો" and "રસીદ" as shops say them. */
export const GU_NOTICE_TEXTS: NoticeTexts = {
  notices: {
    pointsEarned:
      'નમસ્તે {name}, {shop}, {branch} ખાતે આપની ખરીદી પર આપને {points} પોઈન્ટ્સ મળ્યા છે. આપનું બેલેન્સ {balance} પોઈન્ટ્સ છે (કિંમત ₹{value}).',
    pointsRedeemed:
      'નમસ્તે {name}, {shop}, {branch} ખાતે આપના {points} પોઈન્ટ્સ વપરાયા છે. આપનું બેલેન્સ {balance} પોઈન્ટ્સ છે (કિંમત ₹{value}).',
    pointsAdjusted:
      'નમસ્તે {name}, {shop} ખાતે {adjustment}. હવે આપનું બેલેન્સ {balance} પોઈન્ટ્સ છે (કિંમત ₹{value}).',
    pointsExpiring:
      'નમસ્તે {name}, {shop} ખાતેના આપના {points} પોઈન્ટ્સ {dueDate} સુધીમાં સમાપ્ત થશે. તેનો ઉપયોગ કરવા અમારી મુલાકાત લો. બેલેન્સ: {balance} પોઈન્ટ્સ (કિંમત ₹{value}).',
    schemeStarted:
      'નમસ્તે {name}, {shop} ખાતે આપની ગોલ્ડ સેવિંગ સ્કીમ શરૂ થઈ ગઈ છે. ₹{amount} મળ્યા, રસીદ {receipt} (હપ્તો {paid}/{total}).',
    installmentReceived:
      'નમસ્તે {name}, {shop} ખાતે આપની સ્કીમ માટે ₹{amount} મળ્યા, રસીદ {receipt} (હપ્તો {paid}/{total}). આભાર.',
    installmentDue:
      'નમસ્તે {name}, {shop} ખાતે આપની સ્કીમનો ₹{amount}નો હપ્તો {dueDate}ના રોજ ભરવાનો છે ({paid}/{total} હપ્તા ભરાયા).',
    installmentOverdue:
      'નમસ્તે {name}, {shop} ખાતે આપની સ્કીમનો ₹{amount}નો હપ્તો {dueDate}ના રોજ ભરવાનો હતો, જે હજુ બાકી છે. કૃપા કરીને {branch}ની મુલાકાત લો.',
    schemeMatured:
      'નમસ્તે {name}, {shop} ખાતે આપની ગોલ્ડ સેવિંગ સ્કીમ {dueDate}ના રોજ પૂર્ણ થઈ છે. સ્કીમ બંધ કરી આપના દાગીના લેવા {branch}ની મુલાકાત લો.',
    schemeClosed:
      'નમસ્તે {name}, {shop} ખાતે આપની ગોલ્ડ સેવિંગ સ્કીમ બંધ થઈ ગઈ છે. અમારી સાથે બચત કરવા બદલ આભાર.',
    tierUpgraded:
      'નમસ્તે {name}, અભિનંદન! હવે આપ {shop}ના {tier} મેમ્બર છો, દરેક ખરીદી પર આપને વધુ પોઈન્ટ્સ મળશે.',
  },
  adjustment: {
    added: (points) =>
      points === 1
        ? 'આપના પોઈન્ટ્સ ખાતામાં 1 પોઈન્ટ ઉમેરવામાં આવ્યો છે'
        : `આપના પોઈન્ટ્સ ખાતામાં ${groupedCount(points)} પોઈન્ટ્સ ઉમેરવામાં આવ્યા છે`,
    deducted: (points) =>
      points === 1
        ? 'આપના પોઈન્ટ્સ ખાતામાંથી 1 પોઈન્ટ કાપવામાં આવ્યો છે'
        : `આપના પોઈન્ટ્સ ખાતામાંથી ${groupedCount(points)} પોઈન્ટ્સ કાપવામાં આવ્યા છે`,
  },
  signInCode: (code, shop) =>
    `${code} આપનો ${shop} સાઇન-ઇન કોડ છે. તે 5 મિનિટ માટે માન્ય છે. આ કોડ કોઈને પણ જણાવશો નહીં.`,
};
