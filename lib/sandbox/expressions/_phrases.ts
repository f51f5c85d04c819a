/**
 * Phrases of facial and bodily emotion for the sandbox, each with its body
 * part and its category in the ten emotion categories of ML-Ask (Ptaszynski
 * et al.), after Nakamura's dictionary of emotive expressions: 喜 joy,
 * 怒 anger, 哀 sorrow, 怖 fear, 恥 shame, 好 liking, 厭 dislike,
 * 昂 excitement, 安 relief, 驚 surprise.
 *
 * @module
 */

/** The ten ML-Ask emotion categories. */
export const EMOTIONS = ["喜", "怒", "哀", "怖", "恥", "好", "厭", "昂", "安", "驚"] as const;

/** The usual valence of each category; 驚 and 昂 lean either way. */
export const EMOTION_VALENCE: Readonly<Record<string, string>> = {
  喜: "positive",
  好: "positive",
  安: "positive",
  怒: "negative",
  哀: "negative",
  怖: "negative",
  恥: "negative",
  厭: "negative",
  昂: "ambiguous",
  驚: "neutral",
};

// [phrase, body part, emotion]
export const PHRASES: readonly (readonly [string, string, string])[] = [
  ["目を細めた", "目", "喜"],
  ["目を輝かせた", "目", "昂"],
  ["目を見張った", "目", "驚"],
  ["目を丸くした", "目", "驚"],
  ["目を伏せた", "目", "恥"],
  ["目を吊り上げた", "目", "怒"],
  ["目を背けた", "目", "厭"],
  ["目を潤ませた", "目", "哀"],
  ["顔を赤らめた", "顔", "恥"],
  ["顔を曇らせた", "顔", "哀"],
  ["顔をしかめた", "顔", "厭"],
  ["顔色を失った", "顔", "怖"],
  ["顔をほころばせた", "顔", "喜"],
  ["青い顔をした", "顔", "怖"],
  ["口元をゆるめた", "口", "喜"],
  ["口をとがらせた", "口", "怒"],
  ["口をつぐんだ", "口", "哀"],
  ["口をあんぐりと開けた", "口", "驚"],
  ["手を震わせた", "手", "怖"],
  ["手を握りしめた", "手", "昂"],
  ["手を打って喜んだ", "手", "喜"],
  ["拳を固めた", "手", "怒"],
  ["胸をなでおろした", "胸", "安"],
  ["胸が躍った", "胸", "昂"],
  ["胸がつぶれる思いがした", "胸", "哀"],
  ["胸を焦がした", "胸", "好"],
  ["胸が騒いだ", "胸", "怖"],
  ["頬を染めた", "頬", "恥"],
  ["頬をゆるめた", "頬", "喜"],
  ["頬を膨らませた", "頬", "怒"],
  ["頬がこわばった", "頬", "怖"],
  ["眉をひそめた", "眉", "厭"],
  ["眉を寄せた", "眉", "怒"],
  ["眉を開いた", "眉", "安"],
  ["肩を落とした", "肩", "哀"],
  ["肩をすくめた", "肩", "厭"],
  ["肩の力が抜けた", "肩", "安"],
  ["肩を怒らせた", "肩", "怒"],
  ["声を震わせた", "声", "怖"],
  ["声を弾ませた", "声", "喜"],
  ["声を荒らげた", "声", "怒"],
  ["声を詰まらせた", "声", "哀"],
  ["甘い声を出した", "声", "好"],
  ["涙をこぼした", "涙", "哀"],
  ["涙を浮かべて笑った", "涙", "喜"],
  ["悔し涙を流した", "涙", "怒"],
  ["唇を噛んだ", "唇", "怒"],
  ["唇を震わせた", "唇", "怖"],
  ["息を呑んだ", "息", "驚"],
  ["ほっと息をついた", "息", "安"],
  ["息を弾ませた", "息", "昂"],
  ["じっと見つめた", "目", "好"],
];

/**
 * How often each phrase occurs relative to the others (1 when not listed):
 * writers reach for some pairings far more than others (tears with sorrow,
 * wide eyes and a caught breath with surprise, a red face with shame), so
 * the seeded emotion-by-body-part counts have the structure a real corpus
 * has instead of a flat field.
 */
export const PHRASE_WEIGHTS: Readonly<Record<string, number>> = {
  涙をこぼした: 14,
  目を潤ませた: 6,
  肩を落とした: 7,
  胸がつぶれる思いがした: 4,
  目を見張った: 9,
  目を丸くした: 8,
  息を呑んだ: 8,
  口をあんぐりと開けた: 3,
  顔を赤らめた: 7,
  頬を染めた: 6,
  目を伏せた: 4,
  胸をなでおろした: 7,
  ほっと息をついた: 5,
  眉をひそめた: 6,
  顔をしかめた: 5,
  顔をほころばせた: 6,
  目を細めた: 5,
  口元をゆるめた: 4,
  拳を固めた: 4,
  声を荒らげた: 4,
  手を震わせた: 4,
  顔色を失った: 3,
  胸が躍った: 3,
  胸を焦がした: 3,
  じっと見つめた: 3,
};

/** Sentences around a phrase; `{c}` is the character, `{p}` the phrase. */
export const CONTEXTS: readonly string[] = [
  "{c}はそれを聞くと、{p}。",
  "しばらく黙っていたが、{c}は{p}。",
  "その時、{c}は思わず{p}。",
  "「そうですか」と言って、{c}は{p}。",
  "夕暮れの道で、{c}は{p}。",
  "手紙を読み終えると、{c}は{p}。",
  "雨の音を聞きながら、{c}は{p}。",
  "誰も何も言わなかった。{c}はただ{p}。",
  "{c}は{p}。そして窓の外を見た。",
  "障子の向こうで、{c}が{p}。",
];
