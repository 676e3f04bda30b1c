import { groupedCount, type NoticeTexts } from './words.js';

/** Hindi, in the आप-form a counter speaks in; "स्कीम" and "किस्त" as shops say them. */
export const HI_NOTICE_TEXTS: NoticeTexts = {
  notices: {
    pointsEarned:
      'नमस्ते {name} जी, {shop}, {branch} में आपकी खरीदारी पर आपको {points} पॉइंट्स मिले हैं। आपका बैलेंस {balance} पॉइंट्स है (₹{value} के बराबर)।',
    pointsRedeemed:
      'नमस्ते {name} जी, {shop}, {branch} में आपके {points} पॉइंट्स इस्तेमाल किए गए। आपका बैलेंस {balance} पॉइंट्स है (₹{value} के बराबर)।',
    pointsAdjusted:
      'नमस्ते {name} जी, {shop} में {adjustment}। अब आपका बैलेंस {balance} पॉइंट्स है (₹{value} के बराबर)।',
    pointsExpiring:
      'नमस्ते {name} जी, {shop} में आपके {points} पॉइंट्स {dueDate} तक समाप्त हो जाएंगे। इन्हें इस्तेमाल करने के लिए पधारें। बैलेंस: {balance} पॉइंट्स (₹{value} के बराबर)।',
    schemeStarted:
      'नमस्ते {name} जी, {shop} में आपकी गोल्ड सेविंग स्कीम शुरू हो गई है। ₹{amount} प्राप्त हुए, रसीद {receipt} (किस्त {paid}/{total})।',
    installmentReceived:
      'नमस्ते {name} जी, {shop} में आपकी स्कीम के लिए ₹{amount} प्राप्त हुए, रसीद {receipt} (किस्त {paid}/{total})। धन्यवाद।',
    installmentDue:
      'नमस्ते {name} जी, {shop} में आपकी स्कीम की ₹{amount} की किस्त {dueDate} को जमा करनी है ({paid}/{total} किस्तें जमा)।',
    installmentOverdue:
      'नमस्ते {name} जी, {shop} में आपकी स्कीम की ₹{amount} की किस्त {dueDate} को जमा होनी थी, जो अभी बाकी है। कृपया {branch} में पधारें।',
    schemeMatured:
      'नमस्ते {name} जी, {shop} में आपकी गोल्ड सेविंग स्कीम {dueDate} को पूरी हो गई है। स्कीम बंद करके अपने गहने लेने के लिए {branch} में पधारें।',
    schemeClosed:
      'नमस्ते {name} जी, {shop} में आपकी गोल्ड सेविंग स्कीम बंद हो गई है। हमारे साथ बचत करने के लिए धन्यवाद।',
    tierUpgraded:
      'नमस्ते {name} जी, बधाई हो! अब आप {shop} के {tier} मेंबर हैं, हर खरीदारी पर आपको ज़्यादा पॉइंट्स मिलेंगे।',
  },
  adjustment: {
    added: (points) =>
      points === 1
        ? 'आपके पॉइंट्स खाते में 1 पॉइंट जोड़ा गया है'
        : `आपके पॉइंट्स खाते में ${groupedCount(points)} पॉइंट्स जोड़े गए हैं`,
    deducted: (points) =>
      points === 1
        ? 'आपके पॉइंट्स खाते से 1 पॉइंट काटा गया है'
        : `आपके पॉइंट्स खाते से ${groupedCount(points)} पॉइंट्स काटे गए हैं`,
  },
  signInCode: (code, shop) =>
    `${code} आपका ${shop} साइन-इन कोड है। यह 5 मिनट तक मान्य है। इसे किसी को भी न बताएं।`,
};
