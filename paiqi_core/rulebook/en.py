"""The rule book in English, in the terms of Pagat's and Bicycle's pages on Sevens / Fan Tan."""

from __future__ import annotations

LANG = "en"

WORDS = {
    "title": "Rules of {name}",
    "built_from": "This book is written from the rules of the profile `{id}`{chain}. ",
    "extends": " (which changes the rules of {parent})",
    "changed_note": "Rules marked **[house]** differ from {parent}.",
    "changed_set": "Rules marked **[house]** were changed from the published profile.",
    "house": "[house]",
    "players": "Players and cards",
    "deal": "The deal and who starts",
    "play": "What may be played",
    "stuck": "When a player cannot play",
    "jokers": "Jokers",
    "end": "How a game ends",
    "scoring": "Scoring and settlement",
    "session": "Sessions and matches",
    "readings": "Readings where the sources are silent",
    "readings_intro": "The sources leave these points open; paiqi plays them this way.",
    "glossary": "Glossary",
    "example": "Example",
    "examples_note": "Each example below is also a `paiqi` block: `paiqi verify` on this "
    "file plays it on the engine and checks every figure.",
    "seat": "seat {n}",
    "differences": "What {a} changes from {b}",
    "no_differences": "The two profiles play the same rules.",
    "rule_was": "{b}: {old}",
    "parts_ways": "Where the two rule sets part ways",
    "ex_play": "The table holds {table}; the player to move holds {hand}. Legal: {legal}.",
    "ex_stuck": "The table holds {table}; the player to move holds {hand}, none of which "
    "fits. Legal: {legal}.",
    "ex_joker": "The table holds {table}; the player to move holds {hand}. Legal: {legal}.",
    "ex_end": "Near the end: {table} are on the table and seat {seat} holds only {hand}. "
    "After {move}, the game is {over}.",
    "ex_winners": " Winners: {winners}.",
    "over": "over",
    "not_over": "not over",
    "ex_settle": "A finished game: {facts}. Totals {total}; money {money}.",
    "ex_settle_rank": "A finished game: {facts}. Ranks {rank}.",
    "fact_clean": "seat {seat} played out every card",
    "fact_covered": "seat {seat} covered {cards} ({points} points)",
    "fact_last": "seat {seat} went out with {card}",
    "fact_out": "seat {seat} went out first",
    "fact_passes": "seat {seat} passed {n} times",
    "fact_completed": "seat {seat} completed {suits}",
    "act_pass": "pass",
    "act_cover": "cover {card}",
    "not_in_effect": "not in effect",
    "none": "none",
    "and": ", ",
    "against_same": "Same position under {a} and {b}: legal under {a}: {la}; under {b}: {lb}.",
}

SUITS = ("♠", "♥", "♦", "♣")

# Sentences by rule: a string, or one per value (yes/no/none/the value), with {leaf} fields.
RULES: dict[str, str | dict[str, str]] = {
    "players": "{players} players; seats take turns clockwise, seat 0 sitting at the dealer's "
    "left.",
    "deck.jokers": {
        "0": "No jokers.",
        "*": "{jokers} joker(s) are shuffled into the pack.",
    },
    "deck.decks": {"*": "{decks} packs are shuffled together; the copies of a card are alike."},
    "deck.ranks": {
        "none": "A full pack of 52 cards (four suits ♠ ♥ ♦ ♣, A to K).",
        "*": "A short pack: only the ranks {ranks} of each suit are used.",
    },
    "layout.centre": "Every row (one per suit) starts from the {centre}; cards are added next to "
    "it, one rank at a time, up and down.",
    "layout.ace": {
        "low": "The ace is low: a row runs A, 2, … K.",
        "high": "The ace is high: a row runs 2, 3, … K, A.",
    },
    "deck.hand": {"*": "Each player is dealt {hand} cards."},
    "deck.leftover": {
        "dealt": "All the cards are dealt out, one at a time from the dealer's left; with an "
        "uneven share some players hold one card more.",
        "face_up": "Every player gets the same number of cards; the rest lie face up, and the "
        "player to move may play one of them as its card for the turn.",
        "stock": "Every player gets the same number of cards; the rest lie face down as a stock.",
    },
    "opening.method": {
        "holder_leads": "The holder of {card} moves first and must open with it.",
        "first_seat": "The player at the dealer's left moves first; any 7 may open a row.",
        "door_card": "Before play a door card is cut from the pack; the holder of the 7 of its "
        "suit moves first and must open with that 7.",
        "sevens_out": "Right after the deal every 7 goes to the table; the player who held "
        "{card} moves first.",
    },
    "opening.card": {"*": "The opening card is {card}."},
    "layout.ends": {
        "open": "A row ends at its last card (A or K): nothing special happens there, and a suit "
        "is complete when all its cards are down.",
        "cut": "Cutting (斬龍): the card at either end of a row (A or K) closes the suit at once; "
        "the rest of that suit can no longer be played.",
    },
    "layout.ace_king": {
        "none": "Nothing is played beyond the A or the K.",
        "wrap": "A and K are joined: after K comes A and after A comes K, so a row may go round.",
        "tunnel": "Tunnel: once one side of a row reaches its end, the other side is closed next "
        "to the row and is played from its far end (the A or the K) back towards the middle.",
    },
    "layout.sides": {
        "either": "A row may grow on either side of its 7 first.",
        "high_first": "A row grows upwards first: no 6 before the 8 is down.",
        "low_first": "A row grows downwards first: no 8 before the 6 is down.",
        "both_first": "Both the 6 and the 8 must be down before a row grows further.",
    },
    "turn.must_play": {
        "yes": "On your turn you play one card that extends a row, or opens one with a 7. A "
        "player who can play must play.",
        "no": "On your turn you play one card that extends a row, or opens one with a 7; you may "
        "pass instead even when you could play, while you have passes left.",
    },
    "turn.extra_after_end": {
        "may": "A card that ends its row (A or K) gives its player another play, which the "
        "player may take or decline.",
        "must": "A card that ends its row (A or K) gives its player another play, which must be "
        "taken whenever a card can be played.",
    },
    "turn.stuck": {
        "cover": "A player who cannot play covers (蓋牌) one card of their choice face down in "
        "front of them; covered cards count against them at the end.",
        "pass": "A player who cannot play passes.",
    },
    "turn.cover_sevens": {
        "yes": "A 7 may be covered like any other card.",
        "no": "A 7 may never be covered.",
    },
    "turn.pass_limit": {
        "none": "Passes are unlimited.",
        "*": "Each player has {pass_limit} passes a game.",
    },
    "turn.out_of_passes": {
        "burst": "A player with no passes left who cannot play bursts: they lay their whole hand "
        "on the table (each card in its place) and are out of the game, ranked last.",
        "cover": "A player with no passes left who cannot play covers a card face down.",
    },
    "turn.pass_takes": {
        "chosen": "A player who passes takes a card from the previous player still holding "
        "cards, who chooses which and hands it over face down.",
    },
    "turn.draw": {
        "one": "A stuck player draws one card from the stock instead of passing, and may play "
        "it at once if it fits; once the stock is empty, a stuck player passes.",
    },
    "ending.method": {
        "all_empty": "Players drop out as their hands empty; the game goes on until every hand "
        "is empty.",
        "first_out": "The game ends as soon as one player has laid their last card: that player "
        "wins.",
        "one_left": "Players finish in the order they empty their hands; the game ends when only "
        "one player still holds cards.",
    },
    "ending.stall": {
        "*": "If every player still holding cards passes {stall_rounds} times in a row with "
        "nothing else happening, the game ends where it stands.",
    },
    "scoring.method": {
        "covering": "Each player's total is their bonuses minus the points of the cards they "
        "covered (A = 1 … K = 13). The player with the highest total wins and collects from "
        "every player whose total is negative.",
        "platform": "Each player's total is their bonuses minus the points of their covered "
        "cards (A = 1 … K = 13). The best total wins; the others pay the winner.",
        "first_out": "The first player out wins; nobody else is ranked and no money changes hands.",
        "chips": "Everyone antes before the deal; passes cost chips into the pot, and the first "
        "player out takes the pot.",
        "placement": "Players are ranked in the order they finished: the last one holding "
        "cards comes after every finisher, and those who burst come last, the earliest "
        "burst lowest.",
    },
    "scoring.stake": "Base stake: every payment is multiplied by {stake}.",
    "scoring.bust_above": "Bust (爆點): a payer whose covered points exceed {bust_above} pays "
    "×{bust_multiplier} (exactly {bust_above} is no bust).",
    "scoring.bust_multiplier": "A bust multiplies the payment by {bust_multiplier}.",
    "scoring.last_seven_bonus": "Going out with a 7 as the last card (尾張7) scores "
    "+{last_seven_bonus}.",
    "scoring.completion_bonus": "The player whose card completes a suit (all 13 cards down) "
    "scores +{completion_bonus} each time.",
    "scoring.clean_bonus": "Playing out every card without covering any scores +{clean_bonus}.",
    "scoring.big_head": "The payer with the single lowest total (大頭) pays ×{big_head}.",
    "scoring.middle_head": "The payer with the single second-lowest total (中頭) pays "
    "×{middle_head}.",
    "scoring.winner_multiplier.last_seven": "A winner who went out with a 7 collects "
    "×{last_seven}.",
    "scoring.winner_multiplier.all_covered": "A winner who covered every card collects "
    "×{all_covered}.",
    "scoring.winner_multiplier.clean": "A winner who covered nothing collects ×{clean}.",
    "scoring.ante": "Each player antes {ante} chip(s) before the deal.",
    "scoring.pass_cost": "Each pass costs {pass_cost} chip(s) into the pot.",
    "scoring.settlement": {
        "heads": "Losers are labelled by total, best to worst, small head (小頭), middle head "
        "(中頭) and big head (大頭), and pay the fixed amount of their label.",
        "difference": "Each loser pays (winner's total − loser's total) × {rate}.",
    },
    "scoring.head_amounts.small": "小頭 pays {small}.",
    "scoring.head_amounts.middle": "中頭 pays {middle}.",
    "scoring.head_amounts.big": "大頭 pays {big}.",
    "scoring.rate": "Money per point of difference: {rate}.",
    "scoring.closure_bonus": "Completing (or cutting) a suit scores by the order its 7 was "
    "opened: 1st suit (the door suit), 2nd, 3rd, 4th: {closure_bonus}.",
    "scoring.all_covered_total": "A player who covered all their cards (十三蓋) scores "
    "{all_covered_total}, whatever the cards.",
    "scoring.all_covered_busts": {
        "yes": "A 十三蓋 loser whose covered points exceed the bust threshold pays double.",
        "no": "A 十三蓋 player never busts.",
    },
    "scoring.melds": {
        "yes": "Covered cards that form a straight flush of five (同花順), four of a kind (鐵支) "
        "or a full house (葫蘆) are not counted.",
        "no": "Every covered card counts; melds forgive nothing.",
    },
    "scoring.fee": {"*": "The house keeps {fee} of what a winner collects."},
    "scoring.place_points": {
        "none": "Match points by rank: one less than the number of players for first place, "
        "down to 0 for last.",
        "*": "Match points by rank, first place first: {place_points}.",
    },
    "session.hands": "A session is {hands} games; money is carried from game to game.",
    "session.bankroll": {
        "*": "Each player starts a session with {bankroll}; a player who cannot pay ends it.",
    },
    "match.games": {
        "*": "A match is {games} games; the most match points wins, a tie going to whoever "
        "ranked higher in the last game.",
    },
}

READINGS: dict[str, str] = {}  # the readings' own statements are English

GLOSSARY = [
    ("row", "the line of one suit growing from its 7 (its layout or 'tableau')"),
    ("open", "play a 7 to start a row"),
    ("pass", "decline to play; on Pagat's and Bicycle's tables, what a stuck player does"),
    ("cover", "lay a card face down in front of you instead of playing (Taiwanese 蓋牌)"),
    ("burst", "a player out of passes lays the whole hand on the table and drops out"),
    ("ante", "the chip(s) every player puts in the pot before the deal"),
    ("pot", "the chips the winner takes"),
    ("bust", "covered points above the threshold: the payment is doubled (爆點)"),
    ("door card", "the card cut before play that names the first suit (門牌)"),
    ("tunnel", "a row closed next to its end and played from the far end (トンネル)"),
    ("wrap", "A and K joined, so a row can continue round"),
]
