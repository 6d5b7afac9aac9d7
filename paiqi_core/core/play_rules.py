"""Rules of play declared once: each switches a behaviour of the core by a code in the
rules vector, and says here everything else about itself.

A ``PlayRule`` is a profile key whose values the core reads as a code (the first value
does nothing), and the place of that code in the rules vector (a slot between 69 and 79,
``layout``). It carries what every other layer needs of it:

- the rules vector's code (``core.vector`` fills the slot from the profile);
- the rule book's section and a sentence for each value that does something, in each of
  the books' languages (``rulebook``); the first value is a rule that does nothing there;
- the reading of the points the source leaves open, in each language (``readings``,
  ``paiqi explain``);
- the words of a refusal under it: an action the rule alone refuses (one that would be
  legal with the rule's first value) is refused in these words (``engine.reasons``).

A new rule of play is then its schema entry, its behaviour in ``kernel`` (which imports its
slot from here), what its moves prove in ``belief`` where they prove something, and this
declaration. The slot numbers are module constants so that the compiled kernel reads them
as constants.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

# -- the rules vector's slots and the codes of ``kernel.options`` (``layout.BY_*``) --------------
R_SEVENS_FIRST = 69  # a centre card that can be played goes before any other card
R_JOKER_FINISH = 70  # 1: a joker move may not empty its player's hand
R_PASS_BARS = 71  # 1: a pass bars its player from its turns until another player passes
R_START = 74  # 1: any card may begin a row, and takes the centre's part in it (layout.start)
R_TRUMPS = 73  # 1: the last card dealt (the door card) names trumps (layout.trumps)
R_ROWS = 75  # 1: only a row begun and not yet finished may be played to (layout.rows)
R_JOKER_HANDOVER = 72  # the holder of a joker's place: 0 takes it (forced), OPTIONAL, NEVER
R_LAY = 76  # 1: a turn lays a block of cards (turn.lay blocks), one at a time
BY_SEVENS_FIRST = 9  # (kernel.options) a centre card held that can be played went first
BY_HANDOVER = 10  # (kernel.options) the holder of a joker's place is asked: take it or keep
BY_LAYING = 11  # (kernel.options) the player lays on the block of its turn, or stops
OPTIONAL, NEVER = 1, 2  # R_JOKER_HANDOVER


@dataclass(frozen=True)
class PlayRule:
    """A rule of play: the profile key, its slot, its values (in the order of their codes),
    its section of the rule book and sentences (language -> value -> sentence, for the
    values that do something), its reading (key and statement by language), the words of
    a refusal under it (its category, ``engine.reasons.CATEGORIES``, and a format string
    naming ``centre``, the centre rank, and ``legal``, the actions allowed), and the rule
    (a profile key) without which it does nothing (jokers, for a rule of the joker)."""

    key: str
    slot: int
    values: tuple[Any, ...]
    section: str
    sentences: Mapping[str, Mapping[str, str]]
    reading: str = ""
    reading_texts: Mapping[str, str] | None = None
    refusal: tuple[str, str] = ("", "")
    needs: str = ""

    def code(self, value: Any) -> int:
        """The rules vector's code of ``value``."""
        return self.values.index(value)

    def inert(self, value: Any, needed: Any = True) -> bool:
        """Whether ``value`` does nothing (the rule book states it nowhere), the rule it
        needs (``needs``) having the value ``needed``."""
        return bool(value == self.values[0] or not needed)

    def inert_in(self, get: Callable[[str], Any]) -> bool:
        """Whether the rule does nothing in the profile whose values ``get`` reads."""
        return self.inert(get(self.key), get(self.needs) if self.needs else True)


PLAY_RULES: tuple[PlayRule, ...] = (
    PlayRule(
        "turn.sevens_first",
        R_SEVENS_FIRST,
        (False, True),
        "play",
        {
            "en": {
                "yes": "A player who holds a {centre} that can be played must play a {centre} "
                "before any other card."
            },
            "zh-TW": {"yes": "手上有能出的 {centre}，就必須先出 {centre}，不能出別的牌。"},
            "ja": {
                "yes": "出せる {centre} を持っている人は、ほかのカードより先に {centre} を"
                "出さなければなりません。"
            },
        },
        "sevens-first-everything",
        {
            "en": "A 7 that can be played goes before everything else, not only before other "
            "cards: while a player holds one, no joker move, cover or pass by choice is "
            "allowed; after a card that ends its line the extra card must be a 7 if one fits "
            "(or the player stops, where stopping is allowed). A 7 that cannot be played yet "
            "(a second copy with several decks) does not count.",
            "zh-TW": "能出的 7 不只比別的牌優先，而是比一切都優先：手上還有時，不能用鬼牌、"
            "不能蓋牌、也不能自願過牌；出了一列盡頭的牌而再出一張時，若有能出的 7 也必須出 7"
            "（規則允許停手時可以停）。還不能出的 7（多副牌時的第二張）不算。",
            "ja": "出せる 7 はカードだけでなく何よりも先です。持っている間はジョーカーの手も"
            "カードを伏せることも任意のパスもできず、列の端のカードのあとの追加の一枚も、出せる "
            "7 があれば 7 でなければなりません（やめてよいルールならやめることはできます）。"
            "まだ出せない 7（デッキが複数のときの 2 枚目）は数えません。",
        },
        ("must play when able", "a {centre} that can be played goes first ({legal})"),
    ),
    PlayRule(
        "turn.joker_finish",
        R_JOKER_FINISH,
        ("allowed", "refused"),
        "jokers",
        {
            "en": {
                "refused": "Nobody may go out on a joker: a joker move that would play a "
                "player's last cards is not allowed."
            },
            "zh-TW": {"refused": "不能用鬼牌出完：會讓手牌出光的鬼牌出法不可以出。"},
            "ja": {
                "refused": "ジョーカーで上がることはできません。"
                "手札がなくなるジョーカーの手は出せません。"
            },
        },
        "joker-finish-refused",
        {
            "en": "Going out on a joker, which the source calls a foul ranked last, is read as a "
            "move nobody may make: a joker move whose two cards are the player's last is not "
            "legal. The player may still play the other card where it fits; left holding only "
            "the joker, they leave with it and rank behind every player who went out and the "
            "last holder. A player whose only move was that joker move is stuck: it passes, "
            "or with no passes left it is out as the stuck rule says.",
            "zh-TW": "來源說用鬼牌出完是犯規、排最後；這裡讀作沒有人可以這樣出：讓手上最後兩張"
            "（鬼牌和另一張）出完的鬼牌出法不合法。那張牌能接時仍可照常出；之後手上只剩鬼牌，"
            "便帶著鬼牌離場，排在所有出完的人和最後持牌的人之後。唯一的出法是這種鬼牌出法的人"
            "算是無牌可出：過牌，沒有過牌次數時照卡住的規則出局。",
            "ja": "ジョーカー上がりは反則で最下位という決まりを、誰もできない手として読みます。"
            "最後の二枚（ジョーカーともう一枚）を出しきるジョーカーの手は出せません。もう一枚が"
            "出せるならふつうに出せ、そのあとジョーカーだけが残った人はジョーカーとともに抜け、"
            "上がった人と最後まで持っていた人の後の順位になります。その手しかなかった人は出せ"
            "ない人として扱い、パスし、パスがなければ出せないときの規則のとおり脱落します。",
        },
        ("not legal", "nobody may go out on a joker"),
        "deck.jokers",
    ),
    PlayRule(
        "turn.pass_bars",
        R_PASS_BARS,
        (False, True),
        "stuck",
        {
            "en": {
                "yes": "A player who passes is barred: their turns are skipped until another "
                "player passes."
            },
            "zh-TW": {"yes": "過牌的人被停權：輪到他時跳過，直到另一個人過牌為止。"},
            "ja": {"yes": "パスした人は、ほかの人がパスするまで手番を飛ばされます。"},
        },
        "pass-bars-until-another-passes",
        {
            "en": "A pass bars its player until another player passes; that pass frees them "
            "and bars the new passer, so at most one player is barred at a time. A barred "
            "player's turns are skipped, not passed: they are no passes and free nobody. A "
            "player who stops instead of playing an extra card, or after a card drawn, has not "
            "passed. A barred player who is the only one left holding cards is not skipped.",
            "zh-TW": "過牌的人被停權，直到另一個人過牌；那次過牌解除他的停權，並讓新過牌的人"
            "停權，所以同時最多只有一人被停權。被停權的人輪到時直接跳過，不算過牌，也不會解除"
            "別人的停權。出了一列盡頭的牌或摸到的牌之後選擇不再出，不算過牌。只剩被停權的人"
            "手上還有牌時，不再跳過他。",
            "ja": "パスした人は、ほかの人がパスするまで手番を飛ばされます。そのパスで前の人は"
            "戻り、新しくパスした人が飛ばされるので、飛ばされるのは一度に一人までです。飛ばさ"
            "れた手番はパスではなく、誰も戻しません。列の端のあとや引いたカードのあとで出さず"
            "にやめるのはパスではありません。手札が残っているのがその人だけなら飛ばしません。",
        },
        needs="",
    ),
    PlayRule(
        "turn.joker_handover",
        R_JOKER_HANDOVER,
        ("forced", "optional", "never"),
        "jokers",
        {
            "en": {
                "optional": "Unlike the usual rule, the holder of the card a joker stands for "
                "is asked at once: they may lay that card on the joker's place and take the "
                "joker, or keep their card and leave the joker where it is (which is no pass). "
                "A card left under a joker can never be played.",
                "never": "Unlike the usual rule, nobody takes a joker back: it keeps the place it "
                "took for the rest of the game, and the card it stands for can never be played "
                "(its holder keeps it until covering it, or until a burst lays it face up).",
            },
            "zh-TW": {
                "optional": "與一般規則不同：鬼牌代替的那張牌的持有人會立刻被問：可以把那張牌"
                "放到鬼牌的位置並拿走鬼牌，也可以留著自己的牌，讓鬼牌留在原處（這不算過牌）。"
                "被鬼牌佔住位置的牌之後再也不能出。",
                "never": "與一般規則不同：沒有人會拿回鬼牌。鬼牌整局都佔著它的位置，它代替的那張"
                "牌再也不能出（持有人一直留著，直到蓋掉，或爆牌時攤在桌上）。",
            },
            "ja": {
                "optional": "通常のルールと違い、ジョーカーが代わりをしたカードを持つ人はその場"
                "で選べます。そのカードをジョーカーの位置に出してジョーカーを受け取るか、カード"
                "を持ったままジョーカーをそこに残すか（パスには数えません）。ジョーカーの下に"
                "残ったカードは二度と出せません。",
                "never": "通常のルールと違い、ジョーカーは誰も受け取りません。ジョーカーは最後まで"
                "その位置に残り、代わりをしたカードは二度と出せません（持っている人は伏せるか、"
                "脱落で表向きに並べるまで持ち続けます）。",
            },
        },
        "joker-handover-asked-at-once",
        {
            "en": "dokopa.com's joker setting 受け取り (taking the joker) has three values: "
            "あり (the holder of the card takes it), 都度確認 (asked each time: the holder "
            "chooses whether to take it) and なし. The choice is read as made at once, when "
            "the joker is laid, before anyone else moves; it is no turn of the holder's, and "
            "declining is no pass (no pass limit, no pass penalty). Declining, like なし, leaves "
            "the joker on the place for good: the card under it can no longer be played, and "
            "stays in its holder's hand until it is covered or a burst lays it face up (the "
            "joker keeps the place then too). The player who laid the joker then goes on as "
            "after any joker move (an extra play where a line ended, or the next player). A "
            "row with a joker in it is never complete. Everyone sees who is asked and what "
            "they answer.",
            "zh-TW": "dokopa.com 的鬼牌設定「受け取り」（拿走鬼牌）有三個值：あり（那張牌的"
            "持有人拿走鬼牌）、都度確認（每次詢問：持有人選擇要不要拿）和なし。這裡讀作在"
            "鬼牌放下的當下、別人行動之前就決定；這不算持有人的一輪，不拿也不算過牌（不計入"
            "過牌次數，也沒有過牌的懲罰）。不拿和なし一樣，鬼牌整局留在那個位置：底下那張牌"
            "再也不能出，一直留在持有人手上，直到被蓋掉或爆牌時攤開（鬼牌仍佔著位置）。放鬼牌"
            "的人接著照一般鬼牌出法之後的規則繼續（出了一列盡頭的牌可再出，否則輪到下一人）。"
            "有鬼牌在內的一列永遠不算完成。大家都看得到誰被詢問、怎麼回答。",
            "ja": "dokopa.com のジョーカー設定「受け取り」には、あり（そのカードを持つ人が"
            "受け取る）、都度確認（その都度、受け取るかどうかを選ぶ）、なしの三つがあります。"
            "選ぶのはジョーカーが置かれたその場、ほかの誰かが動く前と読みます。その人の手番"
            "ではなく、受け取らないのはパスではありません（パスの回数にも数えません）。受け取ら"
            "なければ、なしと同じくジョーカーは最後までその位置に残り、下のカードはもう出せず、"
            "伏せるか脱落で表向きになるまで持っている人の手に残ります（そのときもジョーカーは"
            "位置に残ります）。ジョーカーを置いた人は、ふつうのジョーカーの手のあとと同じく"
            "続けます（列の端なら追加の一枚、そうでなければ次の人）。ジョーカーが入った列は"
            "完成しません。誰が聞かれ、どう答えたかは全員に見えます。",
        },
        needs="deck.jokers",
    ),
)

PLAY_RULES += (
    PlayRule(
        "layout.start",
        R_START,
        ("centre", "any"),
        "play",
        {
            "en": {
                "any": "Any card may begin a row of its suit, not only a {centre}: the row then "
                "grows from that card as it would from a {centre}, and its line ends with the "
                "rank just below it."
            },
            "zh-TW": {
                "any": "任何一張牌都可以開始它那一花色的列，不一定要 {centre}：那一列就從這張牌"
                "接下去，就像從 {centre} 接一樣，而整列的盡頭是比它小一級的牌。"
            },
            "ja": {
                "any": "{centre} に限らず、どのカードでもそのスートの列を始められます。列はその"
                "カードから {centre} と同じように伸び、そのすぐ下のランクで終わります。"
            },
        },
        "row-begins-with-any-card",
        {
            "en": "The card that begins a row is remembered by the row itself: it is the "
            "lowest card of the run round the corner, so a row of J Q K A 2 began with the J. "
            "The row's line ends with the rank just below its first card, and the card of "
            "that rank, the thirteenth of the suit, is the card that ends the line for an "
            "extra play after it (turn.extra_after_end).",
            "zh-TW": "一列從哪張牌開始，由列本身就看得出：是繞過 K 接到 A 的那一串裡最前面的"
            "一張，所以 J Q K A 2 這一列是從 J 開始的。整列的盡頭是比第一張小一級的牌；那一張"
            "是這花色的第十三張，出了它就算出了一列盡頭的牌，可以再出一張"
            "（turn.extra_after_end）。",
            "ja": "列がどのカードで始まったかは列そのものからわかります。K から A へ回り込む"
            "並びのいちばん前のカードで、J Q K A 2 の列は J から始まっています。列は最初の"
            "カードのすぐ下のランクで終わり、そのランクのカード（スートの 13 枚目）が、追加の"
            "一枚（turn.extra_after_end）を与える列の端のカードです。",
        },
    ),
    PlayRule(
        "layout.rows",
        R_ROWS,
        ("together", "one_at_a_time"),
        "play",
        {
            "en": {
                "one_at_a_time": "Only one row grows at a time: once a row is begun, no "
                "card of another suit may be played until nothing more can join that row; "
                "then any card that may begin a row of another suit can be played."
            },
            "zh-TW": {
                "one_at_a_time": "一次只接一列：一列開始之後，要等那一列再也接不下去，才能出"
                "別的花色；之後可以出任何能開始另一花色一列的牌。"
            },
            "ja": {
                "one_at_a_time": "列は一度にひとつだけ伸びます。列が始まったら、その列に何も"
                "つけられなくなるまでほかのスートは出せず、そのあとはほかのスートの列を始め"
                "られるカードならどれでも出せます。"
            },
        },
        "one-row-at-a-time",
        {
            "en": "A row is finished when nothing more can join it (complete, or closed at a "
            "cut end). Until the open row is finished a player holding none of its next card "
            "is stuck even with cards of other suits in hand; the player who finishes it "
            "begins the next row only where a rule gives an extra play after a card that "
            "ends its line (turn.extra_after_end), and otherwise the next player in turn "
            "does, with any card that may begin a row.",
            "zh-TW": "一列再也接不下去（接滿，或在斬龍的盡頭被斬斷）才算結束。結束之前，手上"
            "沒有它下一張牌的人就算無牌可出，即使手上有別的花色。規則讓出了一列盡頭的牌的人"
            "再出一張（turn.extra_after_end）時，由結束那一列的人開始下一列；否則由下一位開始，"
            "出任何能開始一列的牌。",
            "ja": "列は、もう何もつけられない（そろった、または斬龍の端で切れた）ときに終わり"
            "ます。終わるまでは、その次のカードを持っていない人は、ほかのスートを持っていても"
            "出せない人です。列の端のあとの追加の一枚（turn.extra_after_end）があるときは列を"
            "終えた人が、ないときは次の人が、列を始められるカードで次の列を始めます。",
        },
        (
            "not legal",
            "only the row begun may be played to until nothing more can join it ({legal})",
        ),
    ),
)

PLAY_RULES += (
    PlayRule(
        "layout.trumps",
        R_TRUMPS,
        ("none", "last_dealt"),
        "play",
        {
            "en": {
                "last_dealt": "The last card dealt is turned up for everyone to see (its "
                "receiver keeps it) and its suit is trumps. A trump may be laid in the place of "
                "the card of its rank in any other row, wherever that card could be played; "
                "the card whose place it took then goes to the trump row at its rank instead. "
                "The trump {centre} and the card that named trumps go only to the trump row."
            },
            "zh-TW": {
                "last_dealt": "發出的最後一張牌翻開給大家看（仍歸拿到的人），它的花色就是王牌。"
                "王牌可以放在任何別的花色列裡、同點數那張牌的位置，只要那張牌此時能出；被佔了"
                "位置的那張牌，之後改放到王牌列的同一點數。王牌的 {centre} 和決定王牌的那張牌"
                "只能放在王牌列。"
            },
            "ja": {
                "last_dealt": "最後に配られたカードを全員に見せ（受け取った人の手札のまま）、"
                "そのスートを切り札とします。切り札は、ほかのスートの列で同じランクのカードが"
                "出せる場所ならどこにでも、そのカードの代わりに置けます。場所を取られたカードは"
                "代わりに切り札の列の同じランクの位置に出します。切り札の {centre} と切り札を"
                "決めたカードは切り札の列にしか出せません。"
            },
        },
        "trumps-named-by-the-last-card-dealt",
        {
            "en": "The card that names trumps is the last card dealt (round the table from "
            "the dealer's left: the dealer's own last card when every hand is the same size); "
            "it is shown, so everyone knows who holds it. A trump laid in another row takes "
            "that place for good: the row grows on from it as from the card it stands for, "
            "and the card it displaced fits only the trump row's place of its rank, so it "
            "waits until the trump row reaches that rank. Laying a trump there is a choice, "
            "never forced, and counts as a card played (a player who must play when able may "
            "choose it). A trump can take only a place whose own card is still unplayed, one "
            "place a rank. A game set up from given hands names its trump card with "
            "door_card; without one it is the highest card of the hand that got the last "
            "card dealt round the table.",
            "zh-TW": "決定王牌的是發出的最後一張牌（從莊家左手邊輪流發：每人張數相同時就是莊家"
            "自己的最後一張）；這張牌翻開過，所以大家都知道在誰手上。放進別的花色列的王牌永遠"
            "佔住那個位置：那一列就從它接下去，就像從它代替的那張牌接一樣；被擠掉的那張牌只能"
            "放在王牌列同點數的位置，要等王牌列接到那個點數。把王牌放過去是選擇，從不強制，"
            "也算出了一張牌（必須出牌的人也可以選這一手）。王牌只能佔還沒出的牌的位置，每個"
            "點數一個位置。由指定手牌開始的牌局用 door_card 指定王牌；沒有指定時，是輪流發牌時"
            "拿到最後一張的那一手裡最大的牌。",
            "ja": "切り札を決めるのは最後に配られたカードです（ディーラーの左から順に配るので、"
            "全員の枚数が同じならディーラー自身の最後の一枚）。見せたカードなので、誰が持って"
            "いるかは全員が知っています。ほかの列に置いた切り札はその場所をずっと占め、列は"
            "それが代わりをしたカードから伸びるのと同じように伸びます。場所を取られたカードは"
            "切り札の列の同じランクの位置にしか出せず、切り札の列がそこまで伸びるのを待ちます。"
            "切り札をそこに置くのは選択で、強制されることはなく、一枚出したことになります"
            "（出せるなら出さなければならないルールでも選べます）。切り札が取れるのはまだ出て"
            "いないカードの場所だけで、ランクごとに一か所です。手札を指定して始めるゲームは "
            "door_card で切り札を指定し、指定がなければ最後の一枚を受け取った手のいちばん大きい"
            "カードです。",
        },
    ),
    PlayRule(
        "turn.lay",
        R_LAY,
        ("single", "blocks"),
        "play",
        {
            "en": {
                "blocks": "A turn may lay several cards as one block: a run of one suit "
                "(such as 8 9 10), the same rank in several suits (parallels), or the same "
                "run in several suits (parallel runs). The cards go down one at a time, each "
                "where it fits when it is laid, and the {centre}s may always be laid. After "
                "each card the player may lay on or stop; stopping is no pass."
            },
            "zh-TW": {
                "blocks": "一輪可以出好幾張牌組成的一組：同一花色的順子（例如 8 9 10）、"
                "不同花色的同一點數（並排），或不同花色的同一段順子（並排順子）。牌一張一張放，"
                "每張放下時都要接得上，{centre} 隨時都能出。每出一張之後可以繼續出或停手；"
                "停手不算過牌。"
            },
            "ja": {
                "blocks": "一回の手番で、何枚かのカードを一組として出せます。同じスートの続き"
                "（8 9 10 など）、違うスートの同じランク（並び）、違うスートの同じ続き（並んだ"
                "続き）です。カードは一枚ずつ、置くときにつながる場所に置き、{centre} はいつで"
                "も出せます。一枚ごとに続けるかやめるかを選べ、やめるのはパスではありません。"
            },
        },
        "block-one-run-several-suits",
        {
            "en": "A turn's block is one run of consecutive ranks, laid in one or more suits. "
            "While it holds a single suit the run may grow at either end, a card at a time "
            "(a run 6 7 8 of a suit not yet begun goes down 7 first). Laying a card of a "
            "second suit fixes the run's ranks. A further suit may be begun only at one of "
            "those ranks, and only by a player holding every card of that suit at the run's "
            "ranks who can lay them all now, one after another (its row reaches the run, or "
            "the row is empty and the run holds the centre rank); once begun, that suit's "
            "ranks are completed before the player may stop, so no turn is left half done. "
            "Stopping is no pass: it counts against no pass limit, costs no chip and does not "
            "count towards the stall rule. A run follows the line of the rows: with the ace high, "
            "Q K A is a run; where the rows join the A and the K, a run does not go round "
            "that corner. Where a 7 that fits goes first (turn.sevens_first), that rule is "
            "for a turn's first card; the later cards are the block's. "
            "Everyone sees the cards of the block as they are laid.",
            "zh-TW": "一輪的一組是一段連續的點數，放在一個或幾個花色上。只有一個花色時，這段"
            "順子可以一張一張往兩頭延長（還沒開始的花色要出 6 7 8，先出 7）。出了第二個花色的"
            "牌，這段點數就固定了。之後只能在這些點數上開始另一個花色，而且手上必須有那個花色"
            "在這些點數上的每一張，並且現在就能一張接一張全部放下（那一列接得到這段順子，或那"
            "一列還空著而這段順子包含中心點數）；一開始某個花色，就要把它這些點數出完才能停手，"
            "所以不會有出到一半卡住的一輪。停手不算過牌：不計入過牌次數、不付籌碼、也不算進"
            "僵局規則。順子照列的順序：A 大時 Q K A 是順子；A 和 K 相接的列，順子不繞過"
            "那個轉角。規定能出的 7 要先出（turn.sevens_first）時，只管一輪的第一張；之後的牌"
            "照這一組的規則。一組的每張牌放下時大家都看得到。",
            "ja": "一回の手番の一組は、連続したランクの続き一つで、一つまたは複数のスートに"
            "置きます。スートが一つのうちは、続きは一枚ずつ両端に伸ばせます（まだ始まって"
            "いないスートの 6 7 8 は 7 から置きます）。二つ目のスートのカードを置くと、続き"
            "のランクが決まります。ほかのスートはそのランクでしか始められず、そのスートの"
            "そのランクのカードをすべて持ち、今すぐ順に全部置ける（列が続きまで届いている、"
            "または列が空で続きに中心のランクが入っている）人だけが始められます。始めたら、"
            "そのランクを出しきるまでやめられないので、途中で止まる手番はありません。やめる"
            "のはパスではなく、パスの回数にも、チップにも、手詰まりの規則にも数えません。続き"
            "は列の並びに従います。エースが上なら Q K A も続きで、A と K がつながる列でも"
            "続きはその角を回り込みません。出せる 7 を先に出す規則（turn.sevens_first）は手番の"
            "最初の一枚にだけ働き、そのあとは一組の決まりに従います。一組のカードは置くたびに"
            "全員に見えます。",
        },
        (
            "not legal",
            "a turn's cards form one block (a run, parallels or parallel runs) and each suit "
            "begun is completed at the block's ranks before the player stops ({legal})",
        ),
    ),
)

BY_KEY: Mapping[str, PlayRule] = {rule.key: rule for rule in PLAY_RULES}
