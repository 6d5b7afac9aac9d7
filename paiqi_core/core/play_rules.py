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
- the code ``kernel.options`` returns when the rule decided what the player to move may
  do, and the words of a refusal under it (``engine.reasons``).

A new rule of play is then its schema entry, its behaviour in ``kernel`` (which imports its
slot from here), what its moves prove in ``belief`` where they prove something, and this
declaration. The slot numbers are module constants so that the compiled kernel reads them
as constants.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

# -- the rules vector's slots and the codes of ``kernel.options`` (``layout.BY_*``) --------------
R_SEVENS_FIRST = 69  # a centre card that can be played goes before any other card
BY_SEVENS_FIRST = 9  # a centre card held that can be played goes first


@dataclass(frozen=True)
class PlayRule:
    """A rule of play: the profile key, its slot, its values (in the order of their codes),
    its section of the rule book and sentences (language -> value -> sentence, for the
    values that do something), its reading (key and statement by language), and the code
    of ``kernel.options`` with the words of a refusal under it (a format string naming
    ``centre``, the centre rank, and ``legal``, the actions allowed)."""

    key: str
    slot: int
    values: tuple[Any, ...]
    section: str
    sentences: Mapping[str, Mapping[str, str]]
    reading: str = ""
    reading_texts: Mapping[str, str] | None = None
    by: int = -1
    refusal: str = ""

    def code(self, value: Any) -> int:
        """The rules vector's code of ``value``."""
        return self.values.index(value)

    def inert(self, value: Any) -> bool:
        """Whether ``value`` does nothing (the rule book states it nowhere)."""
        return bool(value == self.values[0])


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
        BY_SEVENS_FIRST,
        "a {centre} that can be played goes first ({legal})",
    ),
)

BY_KEY: Mapping[str, PlayRule] = {rule.key: rule for rule in PLAY_RULES}
BY_CODE: Mapping[int, PlayRule] = {rule.by: rule for rule in PLAY_RULES if rule.by >= 0}
