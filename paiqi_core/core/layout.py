"""Where the kernel keeps things: the slots of a game's state vector, of the rules vector
and of a game's result, as integer offsets shared by the kernel and the Python side.

A game in progress is one int64 vector (``STATE`` long): per seat (up to ``MAX_SEATS``)
the hand, covered cards, cards played, passes, actions, the card whose play emptied the
hand, the dealt hand size, the suits closed (by opening order), finish and burst order,
when the seat left holding only the joker, its joker moves, the hand as dealt and the hand
its burst laid face up, and with several decks the cards of the hand (and of the hand as
dealt) held twice and three times; then the table (and its cards down twice and three
times), the cards that bursts laid face up and the cards dealt to no seat. The rules are
an int64 vector (``RULES`` long) filled from the compiled forms.
"""

from __future__ import annotations

# the numbers of cards and actions, defined once in paiqi_core.cards and paiqi_core.actions
from paiqi_core.actions import BURST as BURST
from paiqi_core.actions import COVER as COVER
from paiqi_core.actions import CUT as CUT
from paiqi_core.actions import DRAW as DRAW
from paiqi_core.actions import DRAW_CARD as DRAW_CARD
from paiqi_core.actions import EVENT as EVENT
from paiqi_core.actions import GIVE as GIVE
from paiqi_core.actions import JOKER as JOKER
from paiqi_core.actions import LEAVE as LEAVE
from paiqi_core.actions import PASS as PASS
from paiqi_core.actions import PLACE as PLACE
from paiqi_core.actions import SWAP as SWAP
from paiqi_core.actions import TRUMP as TRUMP
from paiqi_core.cards import JOKER as JOKER_CARD
from paiqi_core.cards import MAX_JOKERS as MAX_JOKERS
from paiqi_core.cards import SEVEN as SEVEN
from paiqi_core.cards import SUIT_MASK

MAX_SEATS = 12
MAX_DECKS = 3  # copies of each card: a hand's or the table's planes HAND/TWICE/THRICE
DECK_ROOM = 52 * MAX_DECKS + MAX_JOKERS  # room for the cards the kernel shuffles
FULL_ROW = SUIT_MASK
JOKER_BIT = 1 << JOKER_CARD  # the first joker (an action names a joker by it)
JOKER_BITS = ((1 << MAX_JOKERS) - 1) << JOKER_CARD  # every joker (they are alike)
SUITED = JOKER_BIT - 1
EACH_SUIT = 1 | 1 << 13 | 1 << 26 | 1 << 39  # a rank in every suit: << the rank; row * it

# -- state vector -----------------------------------------------------------------------
# per seat, MAX_SEATS slots each (CLOSED: 4 a seat), then the game's own slots
_S = MAX_SEATS
HAND = 0
COVERED = _S
PLAYED = 2 * _S
PASSES = 3 * _S
ACTIONS = 4 * _S
LAST = 5 * _S  # card whose play emptied the hand, -1: none
SIZE = 6 * _S  # cards dealt
NCLOSED = 7 * _S
CLOSED = 8 * _S  # 4 per seat: opening order (1..4) of each suit closed
FINISH = 12 * _S  # finish order, -1: not finished
BURSTED = 13 * _S  # burst order, -1: did not burst
LEFT = 14 * _S  # 1 + the order in which it left holding only jokers; 0: did not
JOKERS = 15 * _S  # joker moves
DEALT = 16 * _S  # hands as dealt
LAID_BY = 17 * _S  # the hand each seat's burst laid face up (jokers in it included), 0: none
# several decks (R_DECKS): a hand is HAND, the cards it holds, with TWICE and THRICE, the
# cards it holds at least twice and three times (0 with one deck); the table likewise
TWICE = 18 * _S
THRICE = 19 * _S
DEALT_TWICE = 20 * _S  # the hand as dealt, likewise
DEALT_THRICE = 21 * _S
_G = 22 * _S  # the game's own slots
OPENED = _G  # suits in opening order (4)
NOPENED = _G + 4
TABLE = _G + 5
FRONTIER = _G + 6
JOKER_AT = _G + 7  # MAX_JOKERS: where each joker stands in, -1: nowhere
_J = _G + 7 + MAX_JOKERS
STARTED = _J
FIRST = _J + 1  # the card the first move must play, -1: none
TURN = _J + 2
OVER = _J + 3
NFINISHED = _J + 4
NBURSTS = _J + 5
NLEFT = _J + 6
DOOR = _J + 7  # the door card, -1: none
DRAWN = _J + 8  # draws from the game's random stream (halves of words; words under WORDS)
LOGLEN = _J + 9  # entries logged (may exceed the log's room: then the log is incomplete)
LAID = _J + 10  # the cards laid face up by bursts (jokers removed with a hand included)
LOST = _J + 11  # the seats whose burst hands held a joker (removed with them), a seat mask
IDLE = _J + 12  # passes in a row, with nothing else done in between (the stall rule)
KEY = _J + 13  # the key of the game's random stream (``paiqi_core.streams``), its 64 bits
PHASE = _J + 14  # the step of the turn: 0 its first, EXTRA after a card that ends its line
GEN = _J + 15  # how the stream draws (``paiqi_core.streams``): 0 halves (Lemire), WORDS words
HALF = _J + 16  # the low half of the last word made, while DRAWN is odd (not drawn yet)
POOL = _J + 17  # the cards dealt to no seat, face up (R_LEFTOVER): the player to move may play them
LEFTOVER = _J + 18  # the cards of POOL as dealt (what was played from it is public)
TAKER = _J + 19  # the seat that passed and takes a card (PHASE GIVE), -1: none
STOCK = _J + 20  # the cards dealt to no seat, face down (R_LEFTOVER STOCK_LEFT): drawn from
TABLE_TWICE = _J + 21  # the cards on the table at least twice (several decks)
TABLE_THRICE = _J + 22  # and three times
BARRED = _J + 23  # 1 + the seat a pass bars from its turns until another passes; 0: none
# the places on the table held by a trump laid in the place of another suit's card of its
# rank (``layout.trumps``), a card mask: the card of such a place goes to the trump row
TRUMPED = _J + 28
# the block of cards laid so far this turn (R_LAY, ``turn.lay`` blocks), packed: its suits
# (BLOCK_SUITS, a mask), the run's lowest and highest place along the line (BLOCK_LOW,
# BLOCK_HIGH; ``kernel.line_bottom``), 1 + the suit begun and still being completed at the
# run's ranks (BLOCK_DUE, 0: none), and the suits that may be begun next (BLOCK_OPEN, a
# mask: held in full at the run's ranks and layable now, as found after the last card);
# 0: no block yet (cleared when the turn ends)
BLOCK = _J + 30
BLOCK_LOW, BLOCK_HIGH, BLOCK_DUE, BLOCK_OPEN = 4, 8, 12, 16  # bit offsets (BLOCK_SUITS: 0)
# 1 + the seat that moves first in place of the opening's first mover (a match's last
# winner, ``match.next_lead``), 0: the opening's; set before the game starts
LEAD = _J + 32
STATE = _J + 33
# what Hoyle's chips count (R_TALLY): twelve counters of TALLY_BITS bits, TALLY_WORD of
# them a word, in the words TALLY and TALLY + 1 (0: nothing yet): counter s (seat 0 to
# TALLY_SEATS - 1) the passes seat s made when it could have played; counter TALLY_SEATS +
# suit the passes made by the holder of the suit's centre card while it could have played
# that card (the profile checks keep every count within TALLY_MOST)
TALLY = _J + 26  # and _J + 27
TALLY_BITS = 10
TALLY_MOST = (1 << TALLY_BITS) - 1  # the most a counter holds (the profile's checks keep to it)
TALLY_WORD = 6
TALLY_SEATS = 8
# the joker move whose place's holder is asked (PHASE OFFER, turn.joker_handover optional):
# 1 + (action - JOKER) + 4096 * the seat that moved; 0: none
OFFERED = _J + 24
# draws growing from stop to stop (R_DRAW GROWING, SHARED): the cards drawn so far at the
# stop in progress (bits 0-3), then 4 bits a count of stops: each seat's (bits 4 + 4 * seat)
# or, under SHARED, the table's (bits 4-7); 0: none yet
DRAWS = _J + 25

# -- rules vector ---------------------------------------------------------------------------
R_PLAYERS = 0
R_DECK = 1  # cards in the deck (52 + jokers)
R_JOKERS = 2
R_MUST_PLAY = 3
R_OPENING = 4  # index in forms.KINDS["opening"]
R_OPENING_CARD = 5
R_DOOR = 6  # a door card is cut
R_STUCK = 7  # 0 cover, 1 pass
R_COVERABLE = 8
R_PASS_LIMIT = 9  # -1: unlimited
R_THEN_COVER = 10
R_MAY_BURST = 11
R_ENDING = 12  # 0 all_empty, 1 first_out, 2 one_left
R_SCORING = 13  # index in forms.KINDS["scoring"]
R_EMPTY_FRONTIER = 14
R_BEYOND = 15  # a joker can be played (the beyond table is filled)
R_STALL = 16  # the stall rule: rounds of passes in a row that end the game, -1: none
R_EXTRA = 17  # after a card that ends its line, another play: 0 none, MAY or MUST
R_ENDS = 18  # the ranks that end a row's line, a mask (0 where rows run on)
R_CENTRE = 19  # the rank every row starts from (the 7: SEVEN)
# the slots' codes (R_OPENING, R_STUCK, R_ENDING) are PLUGIN where the rule is a plugin hook
# with no compiled form: the core asks it at a slot point (``paiqi_core.core.plain``)
PLUGIN = -1
# scoring parameters
R_BUST_ABOVE = 20
R_LAST_SEVEN = 21
R_COMPLETION = 22  # covering: per closure
R_CLEAN = 23
R_BIG = 24
R_MIDDLE = 25
R_BUST_MULT = 26
R_WM_LAST_SEVEN = 27
R_WM_ALL_COVERED = 28
R_WM_CLEAN = 29
R_SETTLEMENT = 30  # platform: 0 heads, 1 difference
R_HEAD_SMALL = 31
R_HEAD_MIDDLE = 32
R_HEAD_BIG = 33
R_RATE = 34
R_CLOSURE = 35  # 4: platform bonus by opening order
R_ALL_COVERED_TOTAL = 39
R_ALL_COVERED_BUSTS = 40
R_MELDS = 41
R_FEE_NUM = 42
R_FEE_DEN = 43
R_ANTE = 44
R_PASS_COST = 45
R_NPOINTS = 46  # placement: place points given (-1: players-1 .. 0)
R_POINTS = 47  # MAX_PLACE_POINTS
MAX_PLACE_POINTS = 8
R_LEFTOVER = 55  # the cards an even share leaves: 0 dealt on round the seats, FACE_UP
# what the course of a game reads (``course``): standings count covered points rather than
# cards held (the stuck rule may make a player cover); a clean hand is an event (the
# scoring gives a bonus for it)
R_COURSE_COVERS = 56
R_CLEAN_EVENT = 57
# what the compiled rule-based player (``heuristic``) reads of the scoring: the bust
# threshold of covered points (-1: none) and the closure bonus by opening order (4)
R_H_BUST = 58
R_H_CLOSURE = 59  # 4
R_ROW = 63  # the ranks of the pack, a mask: a row holding them all is complete
R_TAKE = 64  # a pass takes a card from the previous player holding cards, who chooses it
R_HAND = 65  # the cards dealt to each seat, 0: the pack shared (R_LEFTOVER says how)
R_DRAW = 66  # a stuck player draws from the stock (while it lasts) instead of passing: DRAWS_BY
R_DECKS = 67  # copies of each card of the pack (1 to MAX_DECKS)
R_CARD_COST = 68  # chips: what each other player pays the winner a card still held
R_TALLY = 78  # the kernel counts the passes made when able (TALLY), for the chips penalties
# 69-79: rules of play declared in ``play_rules`` (their slots are there); 80 and above:
# scorings, matches and sessions
R_COUNT_CARDS = 80  # covering: a covered card counts 1 (its points otherwise)
R_PAY = 81  # covering: who pays whom (PAYS): the winner, every two players, nobody
R_PAIRS_CLEAN = 82  # covering, pairs: every payment's multiplier once a player went out clean
# first_out: penalty points for the cards still held (PENALTIES: 0 none, no totals; 1 a
# point a card; 2 pip values; 3 the ranks' values)
R_PENALTY = 83
R_LOSERS = 96  # first_out with penalty points: 1 places the holders by them (fewest first)
# covering, pay totals (PAYS): each player's money is its own total. The points each player
# starts a game with; 全蓋's amounts (fields 0 and 1: that player, each other); whether a
# player out without covering collects the others' covered cost (TOTALS_COLLECT) and
# whether, with nobody out, the fewest covered points cost nothing (TOTALS_SPARE); the
# finishers table: for k = 1 .. MAX_FINISHERS players out without covering, what each of
# them gets and what each other player gets (fields 2(k - 1) and 2(k - 1) + 1 of the four
# slots from R_FINISHERS; 0 past the table). A packed slot holds FIELDS signed 16-bit fields
R_BASE = 84
R_ALL_COVERED_PAY = 85
R_TOTALS_RULES = 86
R_FINISHERS = 87  # 4 slots
MAX_FINISHERS = 8
TOTALS_COLLECT, TOTALS_SPARE = 1, 2
FIELDS = 4  # a packed slot's fields, 16 bits each (-32768 .. 32767)
# chips: an extra ante from the short hands (0) or the long hands (1) of an uneven deal;
# a pass made when able to play; a pass holding a centre card that could be played, to
# each holder of one of its neighbours (the 6 and the 8)
R_EXTRA_ANTE = 91
R_EXTRA_ANTE_LONG = 92
R_ABLE_PASS_COST = 93
R_HELD_SEVEN_PAY = 94
RULES = 112

WORDS = 1  # GEN: the generator ``splitmix64`` (deals made before ``splitmix64-lemire``)
EXTRA = 1  # PHASE: the extra play after a card that ends its line
HAND_ON = 2  # PHASE: the previous player hands a card to the one who passed (TAKER)
DREW = 3  # PHASE: the card just drawn fits: the player may (or must) play it at once
OFFER = 4  # PHASE: the holder of a joker's place takes the joker (plays the card) or keeps it
DRAWING = 5  # PHASE: the player to move draws another card at this stop (R_DRAW GROWING, SHARED)
LAYING = 6  # PHASE: the player to move lays on the block of its turn, or stops (R_LAY)
# R_DRAW: none; one card a stop; as many as the player's own stops so far (1, 2, 3 ...); as
# many as the table's stops so far; as many as the stops in a row since a card was last laid
DRAWS_BY = ("none", "one", "increasing", "increasing_shared", "increasing_run")
GROWING, SHARED, RUN = 2, 3, 4
LEFTOVERS = ("dealt", "face_up", "stock")  # R_LEFTOVER
FACE_UP = 1
STOCK_LEFT = 2
EXTRAS = ("none", "may", "must")  # R_EXTRA
MAY, MUST = 1, 2
# which rule decided what the player to move may do (the last of ``kernel.options``): play,
# cover or pass by choice; stuck, as the stuck rule says; out of passes; the first card of
# the game; must play when able; the extra play after a card that ends its line; a plugin
# the card the player to move hands on (its cards are then the third of ``kernel.options``);
# the draw of a stuck player from the stock (its one action, ``DRAW``), and the card just
# drawn (``PHASE`` DREW: play it, or stop where the player need not play)
BY_CHOICE, BY_STUCK, BY_NO_PASSES, BY_OPENING, BY_MUST_PLAY, BY_EXTRA, BY_PLUGIN, BY_GIVE = range(8)
BY_DRAW = 8  # (9 and above: the rules of ``play_rules``)

OPENINGS = ("holder_leads", "first_seat", "door_card", "sevens_out", "seven_holder")
STUCKS = ("cover", "pass")
ENDINGS = ("all_empty", "first_out", "one_left")
SCORINGS = ("covering", "platform", "placement", "first_out", "chips")
PENALTIES = ("none", "cards", "pips", "ranks")  # R_PENALTY
PAYS = ("winner", "pairs", "totals")  # R_PAY

# -- result of a game, per seat ---------------------------------------------------------------
X_RANK = 0
X_WIN = 1  # 1 for a winner (a share of the win is 1 / winners)
X_TOTAL = 2
X_MONEY = 3  # money = X_MONEY / denominator (times the stake, covering)
X_ACTIONS = 4
X_COVERS = 5
X_PASSES = 6
X_BURST = 7
X_CLOSURES = 8
X_LAST_SEVEN = 9
X_ALL_COVERED = 10
X_JOKERS = 11
# the course of the game (``course``, from its log) and the hand at the end
X_TURN_ORDER = 12  # place in turn order from the first mover
X_LEADS = 13
X_DEFICIT = 14
X_CARDS_LEFT = 15
X_CUTS = 16
X_SWAPS = 17
X_LEAVES = 18
X_EVENTS = 19  # the special rules that fired for the seat, as bits (E_*)
X_LABEL = 20  # the seat's label (LABELS): winner, 小頭, 中頭, 大頭 or none
X_EXEMPT = 21  # covered points not counted (melds)
SEAT_FIELDS = 22
LABELS = ("", "winner", "小頭", "中頭", "大頭")  # X_LABEL
L_WINNER, L_SMALL, L_MIDDLE, L_BIG = 1, 2, 3, 4
# bits of X_EVENTS, set by the scoring (names as ``runs.batch.events_text`` writes them)
E_JOKER_LOST = 1  # a joker in a burst hand, removed
E_CLEAN = 2  # emptied the hand by playing only, where the scoring gives a bonus for it
E_BUST = 4  # paid more for covered points above the bust threshold
E_MELDS = 8  # covered melds not counted
E_FEE = 16  # the house kept a share of this winner's winnings
# per game: the denominator of money, the number of winners, whether totals are kept
G_DEN = 0
G_WINNERS = 1
G_HAS_TOTAL = 2
G_LOG_FULL = 3  # the log ran out of room (the course fields are then not filled)
G_HOUSE = 4  # kept by the house (a fee), over G_DEN
GAME_FIELDS = 5

# -- one game stepped an action at a time (``steps``: the adapters) -------------------------------
# One int64 vector holds the state, the rules and the legal actions of the seat to move as
# indices of the adapters' action space, so that a step from Python passes few arrays.
B_STATE = 0  # the state vector (STATE long)
B_RULES = STATE  # the rules vector (RULES long)
B_LEGAL = B_RULES + RULES  # the legal action indices, ascending (ACTION_INDICES room)
ACTION_INDICES = 211
B_COUNT = B_LEGAL + ACTION_INDICES  # how many
B_JOKERS = B_COUNT + 1  # how many of them are joker moves
B_JX = B_JOKERS + 1  # the joker moves: the place the joker takes (16)
B_JY = B_JX + 16  # and the card played beyond it (16)
BOX = B_JY + 16
