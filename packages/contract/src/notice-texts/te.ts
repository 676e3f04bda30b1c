import { groupedCount, type NoticeTexts } from './words.js';

/** Telugu, in the మీరు-form with గారు; "స్కీము", "వాయిదా" and "రసీదు" as shops say them. */
export const TE_NOTICE_TEXTS: NoticeTexts = {
  notices: {
    pointsEarned:
      'నమస్కారం {name} గారు, {shop}, {branch}లో మీ కొనుగోలుపై మీకు {points} పాయింట్లు లభించాయి. మీ బ్యాలెన్స్ {balance} పాయింట్లు (విలువ ₹{value}).',
    pointsRedeemed:
      'నమస్కారం {name} గారు, {shop}, {branch}లో మీరు {points} పాయింట్లు ఉపయోగించారు. మీ బ్యాలెన్స్ {balance} పాయింట్లు (విలువ ₹{value}).',
    pointsAdjusted:
      'నమస్కారం {name} గారు, {shop}లో {adjustment}. ఇప్పుడు మీ బ్యాలెన్స్ {balance} పాయింట్లు (విలువ ₹{value}).',
    pointsExpiring:
      'నమస్కారం {name} గారు, {shop}లో మీ {points} పాయింట్ల గడువు {dueDate} నాటికి ముగుస్తుంది. వాటిని వాడుకోవడానికి మా దుకాణానికి రండి. బ్యాలెన్స్: {balance} పాయింట్లు (విలువ ₹{value}).',
    schemeStarted:
      'నమస్కారం {name} గారు, {shop}లో మీ గోల్డ్ సేవింగ్స్ స్కీము ప్రారంభమైంది. ₹{amount} అందింది, రసీదు {receipt} (వాయిదా {paid}/{total}).',
    installmentReceived:
      'నమస్కారం {name} గారు, {shop}లో మీ స్కీముకు ₹{amount} అందింది, రసీదు {receipt} (వాయిదా {paid}/{total}). ధన్యవాదాలు.',
    installmentDue:
      'నమస్కారం {name} గారు, {shop}లో మీ స్కీము ₹{amount} వాయిదా {dueDate}న చెల్లించాలి ({paid}/{total} వాయిదాలు చెల్లించారు).',
    installmentOverdue:
      'నమస్కారం {name} గారు, {shop}లో మీ స్కీముకు {dueDate}న చెల్లించాల్సిన ₹{amount} వాయిదా ఇంకా చెల్లించలేదు. దయచేసి {branch}కు రండి.',
    schemeMatured:
      'నమస్కారం {name} గారు, {shop}లో మీ గోల్డ్ సేవింగ్స్ స్కీము {dueDate}న పూర్తయింది. స్కీము ముగించి మీ ఆభరణాలు తీసుకోవడానికి {branch}కు రండి.',
    schemeClosed: 'నమస్కారం {name} గారు, {shop}లో మీ గోల్డ్ సేవింగ్స్ స్కీము ముగిసింది. మాతో పొదుపు చేసినందుకు ధన్యవాదాలు.',
    tierUpgraded:
      'నమస్కారం {name} గారు, అభినందనలు! ఇప్పుడు మీరు {shop}లో {tier} సభ్యులు, ప్రతి కొనుగోలుపై మీకు మరిన్ని పాయింట్లు లభిస్తాయి.',
  },
  adjustment: {
    added: (points) =>
      points === 1
        ? 'మీ పాయింట్ల ఖాతాలో 1 పాయింట్ జమ అయింది'
        : `మీ పాయింట్ల ఖాతాలో ${groupedCount(points)} పాయింట్లు జమ అయ్యాయి`,
    deducted: (points) =>
      points === 1
        ? 'మీ పాయింట్ల ఖాతా నుండి 1 పాయింట్ తీసివేయబడింది'
        : `మీ పాయింట్ల ఖాతా నుండి ${groupedCount(points)} పాయింట్లు తీసివేయబడ్డాయి`,
  },
  signInCode: (code, shop) =>
    `${code} మీ ${shop} సైన్-ఇన్ కోడ్. ఇది 5 నిమిషాల పాటు చెల్లుతుంది. దీన్ని ఎవరితోనూ పంచుకోవద్దు.`,
};
