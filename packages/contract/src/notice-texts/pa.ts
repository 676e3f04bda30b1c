import { groupedCount, type NoticeTexts } from './words.js';

/** Punjabi in Gurmukhi, in the ਤੁਸੀਂ-form with ਜੀ; "ਸਕੀਮ" and "ਕਿਸ਼ਤ" as shops say them. */
export const PA_NOTICE_TEXTS: NoticeTexts = {
  notices: {
    pointsEarned:
      'ਸਤ ਸ੍ਰੀ ਅਕਾਲ {name} ਜੀ, {shop}, {branch} ਵਿਖੇ ਤੁਹਾਡੀ ਖਰੀਦਦਾਰੀ ਉੱਤੇ ਤੁਹਾਨੂੰ {points} ਪੁਆਇੰਟ ਮਿਲੇ ਹਨ। ਤੁਹਾਡਾ ਬੈਲੇਂਸ {balance} ਪੁਆਇੰਟ ਹੈ (ਕੀਮਤ ₹{value})।',
    pointsRedeemed:
      'ਸਤ ਸ੍ਰੀ ਅਕਾਲ {name} ਜੀ, {shop}, {branch} ਵਿਖੇ ਤੁਹਾਡੇ {points} ਪੁਆਇੰਟ ਵਰਤੇ ਗਏ ਹਨ। ਤੁਹਾਡਾ ਬੈਲੇਂਸ {balance} ਪੁਆਇੰਟ ਹੈ (ਕੀਮਤ ₹{value})।',
    pointsAdjusted:
      'ਸਤ ਸ੍ਰੀ ਅਕਾਲ {name} ਜੀ, {shop} ਵਿਖੇ {adjustment}। ਹੁਣ ਤੁਹਾਡਾ ਬੈਲੇਂਸ {balance} ਪੁਆਇੰਟ ਹੈ (ਕੀਮਤ ₹{value})।',
    pointsExpiring:
      'ਸਤ ਸ੍ਰੀ ਅਕਾਲ {name} ਜੀ, {shop} ਵਿਖੇ ਤੁਹਾਡੇ {points} ਪੁਆਇੰਟ {dueDate} ਤੱਕ ਖ਼ਤਮ ਹੋ ਜਾਣਗੇ। ਇਨ੍ਹਾਂ ਨੂੰ ਵਰਤਣ ਲਈ ਜ਼ਰੂਰ ਆਓ। ਬੈਲੇਂਸ: {balance} ਪੁਆਇੰਟ (ਕੀਮਤ ₹{value})।',
    schemeStarted:
      'ਸਤ ਸ੍ਰੀ ਅਕਾਲ {name} ਜੀ, {shop} ਵਿਖੇ ਤੁਹਾਡੀ ਗੋਲਡ ਸੇਵਿੰਗ ਸਕੀਮ ਸ਼ੁਰੂ ਹੋ ਗਈ ਹੈ। ₹{amount} ਪ੍ਰਾਪਤ ਹੋਏ, ਰਸੀਦ {receipt} (ਕਿਸ਼ਤ {paid}/{total})।',
    installmentReceived:
      'ਸਤ ਸ੍ਰੀ ਅਕਾਲ {name} ਜੀ, {shop} ਵਿਖੇ ਤੁਹਾਡੀ ਸਕੀਮ ਲਈ ₹{amount} ਪ੍ਰਾਪਤ ਹੋਏ, ਰਸੀਦ {receipt} (ਕਿਸ਼ਤ {paid}/{total})। ਧੰਨਵਾਦ।',
    installmentDue:
      'ਸਤ ਸ੍ਰੀ ਅਕਾਲ {name} ਜੀ, {shop} ਵਿਖੇ ਤੁਹਾਡੀ ਸਕੀਮ ਦੀ ₹{amount} ਦੀ ਕਿਸ਼ਤ {dueDate} ਨੂੰ ਜਮ੍ਹਾਂ ਕਰਵਾਉਣੀ ਹੈ ({paid}/{total} ਕਿਸ਼ਤਾਂ ਜਮ੍ਹਾਂ)।',
    installmentOverdue:
      'ਸਤ ਸ੍ਰੀ ਅਕਾਲ {name} ਜੀ, {shop} ਵਿਖੇ ਤੁਹਾਡੀ ਸਕੀਮ ਦੀ ₹{amount} ਦੀ ਕਿਸ਼ਤ {dueDate} ਨੂੰ ਜਮ੍ਹਾਂ ਹੋਣੀ ਸੀ, ਜੋ ਅਜੇ ਬਾਕੀ ਹੈ। ਕਿਰਪਾ ਕਰਕੇ {branch} ਵਿਖੇ ਆਓ।',
    schemeMatured:
      'ਸਤ ਸ੍ਰੀ ਅਕਾਲ {name} ਜੀ, {shop} ਵਿਖੇ ਤੁਹਾਡੀ ਗੋਲਡ ਸੇਵਿੰਗ ਸਕੀਮ {dueDate} ਨੂੰ ਪੂਰੀ ਹੋ ਗਈ ਹੈ। ਸਕੀਮ ਬੰਦ ਕਰਵਾ ਕੇ ਆਪਣੇ ਗਹਿਣੇ ਲੈਣ ਲਈ {branch} ਵਿਖੇ ਆਓ।',
    schemeClosed:
      'ਸਤ ਸ੍ਰੀ ਅਕਾਲ {name} ਜੀ, {shop} ਵਿਖੇ ਤੁਹਾਡੀ ਗੋਲਡ ਸੇਵਿੰਗ ਸਕੀਮ ਬੰਦ ਹੋ ਗਈ ਹੈ। ਸਾਡੇ ਨਾਲ ਬੱਚਤ ਕਰਨ ਲਈ ਧੰਨਵਾਦ।',
    tierUpgraded:
      'ਸਤ ਸ੍ਰੀ ਅਕਾਲ {name} ਜੀ, ਵਧਾਈਆਂ! ਹੁਣ ਤੁਸੀਂ {shop} ਦੇ {tier} ਮੈਂਬਰ ਹੋ, ਹਰ ਖਰੀਦਦਾਰੀ ਉੱਤੇ ਤੁਹਾਨੂੰ ਵੱਧ ਪੁਆਇੰਟ ਮਿਲਣਗੇ।',
  },
  adjustment: {
    added: (points) =>
      points === 1
        ? 'ਤੁਹਾਡੇ ਪੁਆਇੰਟ ਖਾਤੇ ਵਿੱਚ 1 ਪੁਆਇੰਟ ਜੋੜਿਆ ਗਿਆ ਹੈ'
        : `ਤੁਹਾਡੇ ਪੁਆਇੰਟ ਖਾਤੇ ਵਿੱਚ ${groupedCount(points)} ਪੁਆਇੰਟ ਜੋੜੇ ਗਏ ਹਨ`,
    deducted: (points) =>
      points === 1
        ? 'ਤੁਹਾਡੇ ਪੁਆਇੰਟ ਖਾਤੇ ਵਿੱਚੋਂ 1 ਪੁਆਇੰਟ ਕੱਟਿਆ ਗਿਆ ਹੈ'
        : `ਤੁਹਾਡੇ ਪੁਆਇੰਟ ਖਾਤੇ ਵਿੱਚੋਂ ${groupedCount(points)} ਪੁਆਇੰਟ ਕੱਟੇ ਗਏ ਹਨ`,
  },
  signInCode: (code, shop) =>
    `${code} ਤੁਹਾਡਾ ${shop} ਸਾਈਨ-ਇਨ ਕੋਡ ਹੈ। ਇਹ 5 ਮਿੰਟ ਲਈ ਵੈਧ ਹੈ। ਇਹ ਕੋਡ ਕਿਸੇ ਨਾਲ ਵੀ ਸਾਂਝਾ ਨਾ ਕਰੋ।`,
};
