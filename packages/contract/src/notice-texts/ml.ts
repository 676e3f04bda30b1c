import { groupedCount, type NoticeTexts } from './words.js';

/** Malayalam, in the നിങ്ങൾ-form; "സ്കീം", "തവണ" and "രസീത്" as shops say them. */
export const ML_NOTICE_TEXTS: NoticeTexts = {
  notices: {
    pointsEarned:
      'നമസ്കാരം {name}, {shop}, {branch}-ൽ നടത്തിയ പർച്ചേസിന് നിങ്ങൾക്ക് {points} പോയിന്റുകൾ ലഭിച്ചു. നിങ്ങളുടെ ബാലൻസ് {balance} പോയിന്റുകൾ (മൂല്യം ₹{value}).',
    pointsRedeemed:
      'നമസ്കാരം {name}, {shop}, {branch}-ൽ നിങ്ങളുടെ {points} പോയിന്റുകൾ ഉപയോഗിച്ചു. നിങ്ങളുടെ ബാലൻസ് {balance} പോയിന്റുകൾ (മൂല്യം ₹{value}).',
    pointsAdjusted:
      'നമസ്കാരം {name}, {shop}-ൽ {adjustment}. ഇപ്പോൾ നിങ്ങളുടെ ബാലൻസ് {balance} പോയിന്റുകൾ (മൂല്യം ₹{value}).',
    pointsExpiring:
      'നമസ്കാരം {name}, {shop}-ലെ നിങ്ങളുടെ {points} പോയിന്റുകളുടെ കാലാവധി {dueDate}-നകം അവസാനിക്കും. അവ ഉപയോഗിക്കാൻ ഞങ്ങളുടെ ഷോറൂം സന്ദർശിക്കൂ. ബാലൻസ്: {balance} പോയിന്റുകൾ (മൂല്യം ₹{value}).',
    schemeStarted:
      'നമസ്കാരം {name}, {shop}-ൽ നിങ്ങളുടെ ഗോൾഡ് സേവിങ്സ് സ്കീം ആരംഭിച്ചു. ₹{amount} ലഭിച്ചു, രസീത് {receipt} (തവണ {paid}/{total}).',
    installmentReceived:
      'നമസ്കാരം {name}, {shop}-ലെ നിങ്ങളുടെ സ്കീമിലേക്ക് ₹{amount} ലഭിച്ചു, രസീത് {receipt} (തവണ {paid}/{total}). നന്ദി.',
    installmentDue:
      'നമസ്കാരം {name}, {shop}-ലെ നിങ്ങളുടെ സ്കീമിന്റെ ₹{amount} തവണ {dueDate}-ന് അടയ്ക്കേണ്ടതാണ് ({paid}/{total} തവണകൾ അടച്ചു).',
    installmentOverdue:
      'നമസ്കാരം {name}, {shop}-ലെ നിങ്ങളുടെ സ്കീമിന്റെ {dueDate}-ന് അടയ്ക്കേണ്ടിയിരുന്ന ₹{amount} തവണ ഇതുവരെ അടച്ചിട്ടില്ല. ദയവായി {branch} സന്ദർശിക്കുക.',
    schemeMatured:
      'നമസ്കാരം {name}, {shop}-ലെ നിങ്ങളുടെ ഗോൾഡ് സേവിങ്സ് സ്കീമിന്റെ കാലാവധി {dueDate}-ന് പൂർത്തിയായി. സ്കീം അവസാനിപ്പിച്ച് ആഭരണങ്ങൾ കൈപ്പറ്റാൻ {branch} സന്ദർശിക്കുക.',
    schemeClosed:
      'നമസ്കാരം {name}, {shop}-ലെ നിങ്ങളുടെ ഗോൾഡ് സേവിങ്സ് സ്കീം അവസാനിപ്പിച്ചു. ഞങ്ങളോടൊപ്പം സമ്പാദിച്ചതിന് നന്ദി.',
    tierUpgraded:
      'നമസ്കാരം {name}, അഭിനന്ദനങ്ങൾ! നിങ്ങൾ ഇപ്പോൾ {shop}-ലെ {tier} അംഗമാണ്, ഓരോ പർച്ചേസിനും കൂടുതൽ പോയിന്റുകൾ ലഭിക്കും.',
  },
  adjustment: {
    added: (points) =>
      `നിങ്ങളുടെ പോയിന്റ് അക്കൗണ്ടിലേക്ക് ${groupedCount(points)} ${points === 1 ? 'പോയിന്റ്' : 'പോയിന്റുകൾ'} ചേർത്തിട്ടുണ്ട്`,
    deducted: (points) =>
      `നിങ്ങളുടെ പോയിന്റ് അക്കൗണ്ടിൽ നിന്ന് ${groupedCount(points)} ${points === 1 ? 'പോയിന്റ്' : 'പോയിന്റുകൾ'} കുറച്ചിട്ടുണ്ട്`,
  },
  signInCode: (code, shop) =>
    `${code} ആണ് നിങ്ങളുടെ ${shop} സൈൻ-ഇൻ കോഡ്. ഇത് 5 മിനിറ്റ് മാത്രം സാധുവാണ്. ഇത് ആരുമായും പങ്കിടരുത്.`,
};
