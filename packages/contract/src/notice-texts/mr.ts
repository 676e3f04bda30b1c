import { groupedCount, type NoticeTexts } from './words.js';

/** Marathi, in the आपण-form; "स्कीम", "हप्ता" and "पावती" as shops say them. */
export const MR_NOTICE_TEXTS: NoticeTexts = {
  notices: {
    pointsEarned:
      'नमस्कार {name} जी, {shop}, {branch} येथे केलेल्या खरेदीवर आपल्याला {points} पॉइंट्स मिळाले आहेत. आपली शिल्लक {balance} पॉइंट्स (₹{value} किमतीचे) आहे.',
    pointsRedeemed:
      'नमस्कार {name} जी, {shop}, {branch} येथे आपले {points} पॉइंट्स वापरले गेले. आपली शिल्लक {balance} पॉइंट्स (₹{value} किमतीचे) आहे.',
    pointsAdjusted:
      'नमस्कार {name} जी, {shop} येथे {adjustment}. आता आपली शिल्लक {balance} पॉइंट्स (₹{value} किमतीचे) आहे.',
    pointsExpiring:
      'नमस्कार {name} जी, {shop} येथील आपले {points} पॉइंट्स {dueDate} पर्यंत संपणार आहेत. ते वापरण्यासाठी नक्की भेट द्या. शिल्लक: {balance} पॉइंट्स (₹{value} किमतीचे).',
    schemeStarted:
      'नमस्कार {name} जी, {shop} येथील आपली गोल्ड सेव्हिंग स्कीम सुरू झाली आहे. ₹{amount} मिळाले, पावती {receipt} (हप्ता {paid}/{total}).',
    installmentReceived:
      'नमस्कार {name} जी, {shop} येथील आपल्या स्कीमसाठी ₹{amount} मिळाले, पावती {receipt} (हप्ता {paid}/{total}). धन्यवाद.',
    installmentDue:
      'नमस्कार {name} जी, {shop} येथील आपल्या स्कीमचा ₹{amount} चा हप्ता {dueDate} रोजी भरायचा आहे ({paid}/{total} हप्ते भरले).',
    installmentOverdue:
      'नमस्कार {name} जी, {shop} येथील आपल्या स्कीमचा ₹{amount} चा हप्ता {dueDate} रोजी भरायचा होता, तो अजून भरलेला नाही. कृपया {branch} येथे भेट द्या.',
    schemeMatured:
      'नमस्कार {name} जी, {shop} येथील आपली गोल्ड सेव्हिंग स्कीम {dueDate} रोजी पूर्ण झाली आहे. स्कीम बंद करून आपले दागिने घेण्यासाठी {branch} येथे भेट द्या.',
    schemeClosed:
      'नमस्कार {name} जी, {shop} येथील आपली गोल्ड सेव्हिंग स्कीम बंद झाली आहे. आमच्याकडे बचत केल्याबद्दल धन्यवाद.',
    tierUpgraded:
      'नमस्कार {name} जी, अभिनंदन! {shop} येथे आता आपण {tier} मेंबर आहात, प्रत्येक खरेदीवर आपल्याला अधिक पॉइंट्स मिळतील.',
  },
  adjustment: {
    added: (points) =>
      points === 1
        ? 'आपल्या पॉइंट्स खात्यात 1 पॉइंट जमा केला आहे'
        : `आपल्या पॉइंट्स खात्यात ${groupedCount(points)} पॉइंट्स जमा केले आहेत`,
    deducted: (points) =>
      points === 1
        ? 'आपल्या पॉइंट्स खात्यातून 1 पॉइंट वजा केला आहे'
        : `आपल्या पॉइंट्स खात्यातून ${groupedCount(points)} पॉइंट्स वजा केले आहेत`,
  },
  signInCode: (code, shop) =>
    `${code} हा आपला ${shop} साइन-इन कोड आहे. तो 5 मिनिटांसाठी वैध आहे. हा कोड कोणालाही सांगू नका.`,
};
