import { groupedCount, type NoticeTexts } from './words.js';

/** Kannada, in the ನೀವು-form with ಅವರೇ; "ಸ್ಕೀಮ್", "ಕಂತು" and "ರಶೀದಿ" as shops say them. */
export const KN_NOTICE_TEXTS: NoticeTexts = {
  notices: {
    pointsEarned:
      'ನಮಸ್ಕಾರ {name} ಅವರೇ, {shop}, {branch}ನಲ್ಲಿ ನಿಮ್ಮ ಖರೀದಿಗೆ ನಿಮಗೆ {points} ಪಾಯಿಂಟ್ಸ್ ಸಿಕ್ಕಿವೆ. ನಿಮ್ಮ ಬ್ಯಾಲೆನ್ಸ್ {balance} ಪಾಯಿಂಟ್ಸ್ (ಮೌಲ್ಯ ₹{value}).',
    pointsRedeemed:
      'ನಮಸ್ಕಾರ {name} ಅವರೇ, {shop}, {branch}ನಲ್ಲಿ ನೀವು {points} ಪಾಯಿಂಟ್ಸ್ ಬಳಸಿದ್ದೀರಿ. ನಿಮ್ಮ ಬ್ಯಾಲೆನ್ಸ್ {balance} ಪಾಯಿಂಟ್ಸ್ (ಮೌಲ್ಯ ₹{value}).',
    pointsAdjusted:
      'ನಮಸ್ಕಾರ {name} ಅವರೇ, {shop}ನಲ್ಲಿ {adjustment}. ಈಗ ನಿಮ್ಮ ಬ್ಯಾಲೆನ್ಸ್ {balance} ಪಾಯಿಂಟ್ಸ್ (ಮೌಲ್ಯ ₹{value}).',
    pointsExpiring:
      'ನಮಸ್ಕಾರ {name} ಅವರೇ, {shop}ನಲ್ಲಿರುವ ನಿಮ್ಮ {points} ಪಾಯಿಂಟ್ಸ್ {dueDate}ರೊಳಗೆ ಅವಧಿ ಮೀರುತ್ತವೆ. ಅವುಗಳನ್ನು ಬಳಸಲು ನಮ್ಮ ಅಂಗಡಿಗೆ ಬನ್ನಿ. ಬ್ಯಾಲೆನ್ಸ್: {balance} ಪಾಯಿಂಟ್ಸ್ (ಮೌಲ್ಯ ₹{value}).',
    schemeStarted:
      'ನಮಸ್ಕಾರ {name} ಅವರೇ, {shop}ನಲ್ಲಿ ನಿಮ್ಮ ಗೋಲ್ಡ್ ಸೇವಿಂಗ್ಸ್ ಸ್ಕೀಮ್ ಆರಂಭವಾಗಿದೆ. ₹{amount} ಸ್ವೀಕರಿಸಲಾಗಿದೆ, ರಶೀದಿ {receipt} (ಕಂತು {paid}/{total}).',
    installmentReceived:
      'ನಮಸ್ಕಾರ {name} ಅವರೇ, {shop}ನಲ್ಲಿ ನಿಮ್ಮ ಸ್ಕೀಮಿಗೆ ₹{amount} ಸ್ವೀಕರಿಸಿದ್ದೇವೆ, ರಶೀದಿ {receipt} (ಕಂತು {paid}/{total}). ಧನ್ಯವಾದಗಳು.',
    installmentDue:
      'ನಮಸ್ಕಾರ {name} ಅವರೇ, {shop}ನಲ್ಲಿ ನಿಮ್ಮ ಸ್ಕೀಮಿನ ₹{amount} ಕಂತನ್ನು {dueDate}ರಂದು ಪಾವತಿಸಬೇಕಿದೆ ({paid}/{total} ಕಂತುಗಳು ಪಾವತಿಯಾಗಿವೆ).',
    installmentOverdue:
      'ನಮಸ್ಕಾರ {name} ಅವರೇ, {shop}ನಲ್ಲಿ ನಿಮ್ಮ ಸ್ಕೀಮಿನ ₹{amount} ಕಂತು {dueDate}ರಂದು ಪಾವತಿಯಾಗಬೇಕಿತ್ತು, ಇನ್ನೂ ಬಾಕಿ ಇದೆ. ದಯವಿಟ್ಟು {branch}ಗೆ ಭೇಟಿ ನೀಡಿ.',
    schemeMatured:
      'ನಮಸ್ಕಾರ {name} ಅವರೇ, {shop}ನಲ್ಲಿ ನಿಮ್ಮ ಗೋಲ್ಡ್ ಸೇವಿಂಗ್ಸ್ ಸ್ಕೀಮ್ {dueDate}ರಂದು ಪೂರ್ಣಗೊಂಡಿದೆ. ಸ್ಕೀಮ್ ಮುಕ್ತಾಯಗೊಳಿಸಿ ನಿಮ್ಮ ಆಭರಣಗಳನ್ನು ಪಡೆಯಲು {branch}ಗೆ ಭೇಟಿ ನೀಡಿ.',
    schemeClosed:
      'ನಮಸ್ಕಾರ {name} ಅವರೇ, {shop}ನಲ್ಲಿ ನಿಮ್ಮ ಗೋಲ್ಡ್ ಸೇವಿಂಗ್ಸ್ ಸ್ಕೀಮ್ ಮುಕ್ತಾಯಗೊಂಡಿದೆ. ನಮ್ಮೊಂದಿಗೆ ಉಳಿತಾಯ ಮಾಡಿದ್ದಕ್ಕೆ ಧನ್ಯವಾದಗಳು.',
    tierUpgraded:
      'ನಮಸ್ಕಾರ {name} ಅವರೇ, ಅಭಿನಂದನೆಗಳು! ನೀವು ಈಗ {shop}ನ {tier} ಸದಸ್ಯರು, ಪ್ರತಿ ಖರೀದಿಯಲ್ಲೂ ನಿಮಗೆ ಹೆಚ್ಚು ಪಾಯಿಂಟ್ಸ್ ಸಿಗುತ್ತವೆ.',
  },
  adjustment: {
    added: (points) =>
      `ನಿಮ್ಮ ಪಾಯಿಂಟ್ಸ್ ಖಾತೆಗೆ ${groupedCount(points)} ${points === 1 ? 'ಪಾಯಿಂಟ್' : 'ಪಾಯಿಂಟ್ಸ್'} ಸೇರಿಸಲಾಗಿದೆ`,
    deducted: (points) =>
      `ನಿಮ್ಮ ಪಾಯಿಂಟ್ಸ್ ಖಾತೆಯಿಂದ ${groupedCount(points)} ${points === 1 ? 'ಪಾಯಿಂಟ್' : 'ಪಾಯಿಂಟ್ಸ್'} ಕಡಿತಗೊಳಿಸಲಾಗಿದೆ`,
  },
  signInCode: (code, shop) =>
    `${code} ನಿಮ್ಮ ${shop} ಸೈನ್-ಇನ್ ಕೋಡ್. ಇದು 5 ನಿಮಿಷಗಳವರೆಗೆ ಮಾತ್ರ ಮಾನ್ಯ. ಇದನ್ನು ಯಾರೊಂದಿಗೂ ಹಂಚಿಕೊಳ್ಳಬೇಡಿ.`,
};
