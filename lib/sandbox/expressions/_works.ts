/**
 * The works of the expression sandbox: thirty real public-domain Japanese
 * literary works with their real titles, authors, years (first publication
 * or composition, Gregorian) and genres, and some of their characters.
 *
 * The `pid` values are MADE UP for the sandbox. They look like identifiers
 * of the national digital collection but point at nothing there.
 *
 * @module
 */

/** A character of a work and the gender the index gives it. */
export interface SandboxCharacter {
  /** The character's name. */
  name: string;
  /** Gender the index gives the character. */
  gender: "male" | "female" | "unknown" | "mixed";
}

/** One work of the sandbox. */
export interface SandboxWork {
  /**
   * A made-up identifier in the style of the national digital collection;
   * NOT a real identifier of that work.
   */
  pid: string;
  /** Title of the work. */
  title: string;
  /** Author's name. */
  author: string;
  /** Year of first publication. */
  year: number;
  /** Genre label. */
  genre: string;
  /** Nippon Decimal Classification; null where the catalogue lacks it. */
  ndc: string | null;
  /** Characters the expressions are attributed to. */
  characters: SandboxCharacter[];
}

const m = (name: string): SandboxCharacter => ({ name, gender: "male" });
const f = (name: string): SandboxCharacter => ({ name, gender: "female" });
const u = (name: string): SandboxCharacter => ({ name, gender: "unknown" });
const x = (name: string): SandboxCharacter => ({ name, gender: "mixed" });

type Row = [string, string, number, string, string | null, SandboxCharacter[]];

// title, author, year, genre, ndc, characters
const ROWS: Row[] = [
  ["吾輩は猫である", "夏目漱石", 1905, "長編小説", "913.6", [
    u("吾輩"),
    m("苦沙弥"),
    m("迷亭"),
    f("細君"),
  ]],
  ["坊っちゃん", "夏目漱石", 1906, "中編小説", "913.6", [
    m("おれ"),
    f("清"),
    m("山嵐"),
    m("赤シャツ"),
    f("マドンナ"),
  ]],
  ["草枕", "夏目漱石", 1906, "中編小説", "913.6", [m("余"), f("那美")]],
  ["三四郎", "夏目漱石", 1908, "長編小説", "913.6", [
    m("三四郎"),
    f("美禰子"),
    m("野々宮"),
    m("与次郎"),
  ]],
  ["こころ", "夏目漱石", 1914, "長編小説", "913.6", [
    m("私"),
    m("先生"),
    m("K"),
    f("奥さん"),
    f("お嬢さん"),
  ]],
  ["羅生門", "芥川龍之介", 1915, "短編小説", "913.6", [m("下人"), f("老婆")]],
  ["鼻", "芥川龍之介", 1916, "短編小説", "913.6", [m("禅智内供"), m("弟子")]],
  ["地獄変", "芥川龍之介", 1918, "短編小説", "913.6", [m("良秀"), f("娘"), m("大殿")]],
  ["蜘蛛の糸", "芥川龍之介", 1918, "児童文学", "913.6", [m("犍陀多"), u("御釈迦様")]],
  ["河童", "芥川龍之介", 1927, "中編小説", "913.6", [m("僕"), u("バッグ"), u("トック")]],
  ["浮雲", "二葉亭四迷", 1887, "長編小説", "913.6", [m("文三"), f("お勢"), m("昇")]],
  ["舞姫", "森鷗外", 1890, "短編小説", "913.6", [m("豊太郎"), f("エリス"), m("相沢")]],
  ["雁", "森鷗外", 1911, "中編小説", "913.6", [f("お玉"), m("岡田"), m("末造")]],
  ["山椒大夫", "森鷗外", 1915, "短編小説", "913.6", [f("安寿"), m("厨子王"), m("山椒大夫")]],
  ["高瀬舟", "森鷗外", 1916, "短編小説", "913.6", [m("喜助"), m("庄兵衛")]],
  ["たけくらべ", "樋口一葉", 1895, "短編小説", "913.6", [f("美登利"), m("信如"), m("正太郎")]],
  ["にごりえ", "樋口一葉", 1895, "短編小説", "913.6", [f("お力"), m("源七"), m("結城朝之助")]],
  ["金色夜叉", "尾崎紅葉", 1897, "長編小説", "913.6", [m("間貫一"), f("お宮")]],
  ["武蔵野", "国木田独歩", 1898, "随筆", "914.6", [m("自分"), x("村人たち")]],
  ["高野聖", "泉鏡花", 1900, "中編小説", null, [m("宗朝"), f("女"), m("私")]],
  ["野菊の墓", "伊藤左千夫", 1906, "中編小説", "913.6", [m("政夫"), f("民子")]],
  ["破戒", "島崎藤村", 1906, "長編小説", "913.6", [m("丑松"), m("蓮太郎"), f("お志保")]],
  ["蒲団", "田山花袋", 1907, "中編小説", "913.6", [m("時雄"), f("芳子")]],
  ["注文の多い料理店", "宮沢賢治", 1924, "児童文学", "913.8", [x("二人の紳士"), u("山猫")]],
  ["檸檬", "梶井基次郎", 1925, "短編小説", null, [m("私")]],
  ["富嶽百景", "太宰治", 1939, "短編小説", "913.6", [m("私"), f("娘さん"), x("茶店の人々")]],
  ["走れメロス", "太宰治", 1940, "短編小説", "913.6", [
    m("メロス"),
    m("セリヌンティウス"),
    m("王"),
    f("妹"),
  ]],
  ["山月記", "中島敦", 1942, "短編小説", "913.6", [m("李徴"), m("袁傪")]],
  ["斜陽", "太宰治", 1947, "長編小説", "913.6", [f("かず子"), f("母"), m("直治"), m("上原")]],
  ["人間失格", "太宰治", 1948, "長編小説", "913.6", [m("葉蔵"), f("ヨシ子"), m("堀木")]],
];

/** The sandbox works; pids are made up (see {@linkcode SandboxWork.pid}). */
export const SANDBOX_WORKS: readonly SandboxWork[] = ROWS.map((
  [title, author, year, genre, ndc, characters],
  i,
) => ({
  // Made-up identifier: 9 digits from a fixed base, not a real collection pid.
  pid: String(990_000_101 + i * 7),
  title,
  author,
  year,
  genre,
  ndc,
  characters,
}));
