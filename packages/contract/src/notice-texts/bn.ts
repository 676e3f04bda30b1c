import { groupedCount, type NoticeTexts } from './words.js';

/** Bengali, in the আপনি-form; "স্কিম", "কিস্তি" and "রসিদ" as shops say them. */
export const BN_NOTICE_TEXTS: NoticeTexts = {
  notices: {
    pointsEarned:
      'প্রিয় {name}, {shop}, {branch}-এ কেনাকাটায় আপনি {points} পয়েন্ট পেয়েছেন। আপনার ব্যালেন্স {balance} পয়েন্ট (মূল্য ₹{value})।',
    pointsRedeemed:
      'প্রিয় {name}, {shop}, {branch}-এ আপনার {points} পয়েন্ট ব্যবহার করা হয়েছে। আপনার ব্যালেন্স {balance} পয়েন্ট (মূল্য ₹{value})।',
    pointsAdjusted:
      'প্রিয় {name}, {shop}-এ {adjustment}। এখন আপনার ব্যালেন্স {balance} পয়েন্ট (মূল্য ₹{value})।',
    pointsExpiring:
      'প্রিয় {name}, {shop}-এ আপনার {points} পয়েন্টের মেয়াদ {dueDate}-এর মধ্যে শেষ হবে। সেগুলি ব্যবহার করতে আমাদের দোকানে আসুন। ব্যালেন্স: {balance} পয়েন্ট (মূল্য ₹{value})।',
    schemeStarted:
      'প্রিয় {name}, {shop}-এ আপনার গোল্ড সেভিংস স্কিম শুরু হয়েছে। ₹{amount} পাওয়া গেছে, রসিদ {receipt} (কিস্তি {paid}/{total})।',
    installmentReceived:
      'প্রিয় {name}, {shop}-এ আপনার স্কিমের জন্য ₹{amount} পাওয়া গেছে, রসিদ {receipt} (কিস্তি {paid}/{total})। ধন্যবাদ।',
    installmentDue:
      'প্রিয় {name}, {shop}-এ আপনার স্কিমের ₹{amount} কিস্তি {dueDate} তারিখে জমা দিতে হবে ({paid}/{total} কিস্তি জমা হয়েছে)।',
    installmentOverdue:
      'প্রিয় {name}, {shop}-এ আপনার স্কিমের ₹{amount} কিস্তি {dueDate} তারিখে জমা দেওয়ার কথা ছিল, এখনও জমা হয়নি। অনুগ্রহ করে {branch}-এ আসুন।',
    schemeMatured:
      'প্রিয় {name}, {shop}-এ আপনার গোল্ড সেভিংস স্কিমের মেয়াদ {dueDate} তারিখে পূর্ণ হয়েছে। স্কিম বন্ধ করে আপনার গয়না নিতে {branch}-এ আসুন।',
    schemeClosed:
      'প্রিয় {name}, {shop}-এ আপনার গোল্ড সেভিংস স্কিম বন্ধ করা হয়েছে। আমাদের সঙ্গে সঞ্চয় করার জন্য ধন্যবাদ।',
    tierUpgraded:
      'প্রিয় {name}, অভিনন্দন! আপনি এখন {shop}-এর {tier} সদস্য, প্রতিটি কেনাকাটায় আরও বেশি পয়েন্ট পাবেন।',
  },
  adjustment: {
    added: (points) => `আপনার পয়েন্ট অ্যাকাউন্টে ${groupedCount(points)} পয়েন্ট যোগ করা হয়েছে`,
    deducted: (points) => `আপনার পয়েন্ট অ্যাকাউন্ট থেকে ${groupedCount(points)} পয়েন্ট কাটা হয়েছে`,
  },
  signInCode: (code, shop) =>
    `${code} আপনার ${shop} সাইন-ইন কোড। এটি 5 মিনিট পর্যন্ত বৈধ। এই কোড কাউকে জানাবেন না।`,
};
