"""規則書（繁體中文），用台灣牌桌的說法：蓋牌、大頭／中頭／小頭、爆點、全脫手、尾張七、斬龍、門牌。"""

from __future__ import annotations

LANG = "zh-TW"

WORDS = {
    "title": "{name} 規則",
    "built_from": "本規則書依設定檔 `{id}`{chain} 的規則寫成。",
    "extends": "（改自 {parent} 的規則）",
    "changed_note": "標有 **［自訂］** 的規則與 {parent} 不同。",
    "changed_set": "標有 **［自訂］** 的規則已從原設定檔改動。",
    "house": "［自訂］",
    "players": "人數與牌",
    "deal": "發牌與先手",
    "play": "可以出什麼牌",
    "stuck": "無牌可出時",
    "jokers": "鬼牌",
    "end": "一局怎麼結束",
    "scoring": "計分與結算",
    "session": "連打與比賽",
    "readings": "規則來源未明說之處",
    "readings_intro": "以下幾點規則來源沒有講清楚，paiqi 這樣處理。",
    "glossary": "名詞",
    "example": "例",
    "examples_note": "下列每個例子同時寫成 `paiqi` 區塊：對本檔執行 `paiqi verify`，"
    "引擎會實際走一遍並核對每個數字。",
    "seat": "{n} 號位",
    "differences": "{a} 與 {b} 的不同",
    "no_differences": "兩個設定檔的規則相同。",
    "rule_was": "{b}：{old}",
    "parts_ways": "兩套規則分歧之處",
    "ex_play": "桌上有 {table}；輪到的玩家手上有 {hand}。可出：{legal}。",
    "ex_stuck": "桌上有 {table}；輪到的玩家手上有 {hand}，沒有一張接得上。可做：{legal}。",
    "ex_joker": "桌上有 {table}；輪到的玩家手上有 {hand}。可做：{legal}。",
    "ex_end": "快結束時：桌上有 {table}，{seat} 號位只剩 {hand}。出 {move} 之後，本局{over}。",
    "ex_winners": "贏家：{winners}。",
    "over": "結束",
    "not_over": "尚未結束",
    "ex_settle": "一局打完：{facts}。總分 {total}；輸贏 {money}。",
    "ex_settle_rank": "一局打完：{facts}。名次 {rank}。",
    "fact_clean": "{seat} 號位全部出完",
    "fact_covered": "{seat} 號位蓋了 {cards}（{points} 點）",
    "fact_last": "{seat} 號位最後出 {card}",
    "fact_out": "{seat} 號位最先出完",
    "fact_passes": "{seat} 號位過了 {n} 次",
    "fact_completed": "{seat} 號位接完 {suits}",
    "act_pass": "過牌",
    "act_cover": "蓋 {card}",
    "not_in_effect": "不適用",
    "none": "無",
    "and": "，",
    "against_same": "同一個局面，{a}：可出 {la}；{b}：可出 {lb}。",
}

RULES: dict[str, str | dict[str, str]] = {
    "players": "{players} 人玩，依順時針輪流；0 號位坐在發牌者左手邊。",
    "deck.jokers": {"0": "不用鬼牌。", "*": "牌裡加入 {jokers} 張鬼牌。"},
    "deck.decks": {"*": "{decks} 副牌混在一起洗；同一張牌的幾張彼此相同。"},
    "deck.ranks": {
        "none": "一副 52 張的牌（黑桃 ♠、紅心 ♥、方塊 ♦、梅花 ♣，各 A 到 K）。",
        "*": "短牌：每種花色只用 {ranks}。",
    },
    "layout.centre": "每種花色排成一列，從 {centre} 開始；牌一張一張往上、往下接。",
    "layout.ace": {
        "low": "A 當最小：一列是 A、2……K。",
        "high": "A 當最大：一列是 2、3……K、A。",
    },
    "deck.hand": {"*": "每人發 {hand} 張。"},
    "deck.leftover": {
        "dealt": "牌全部發完，從發牌者左手邊一張一張發；分不平均時有人多一張。",
        "face_up": "每人發一樣多；剩下的牌翻開放著，輪到的人可以把其中一張當作這一手出。",
        "stock": "每人發一樣多；剩下的牌蓋著當牌堆。",
    },
    "opening.method": {
        "holder_leads": "拿到 {card} 的人先出，而且第一張必須出它。",
        "first_seat": "發牌者左手邊的人先出；任何一張 7 都可以開一列。",
        "door_card": "開打前先切一張門牌；拿到門牌花色 7 的人先出，第一張必須出那張 7。",
        "sevens_out": "發完牌後所有的 7 立刻擺上桌；原本拿 {card} 的人先出。",
    },
    "opening.card": {"*": "開局的牌是 {card}。"},
    "layout.ends": {
        "open": "接龍：一列接到 A 或 K 就到底，沒有特別的事；一種花色全部上桌才算接完。",
        "cut": "斬龍：出了一列兩端的牌（A 或 K），這個花色立刻封住，其餘的牌再也不能出。",
    },
    "layout.ace_king": {
        "none": "A 和 K 之外不能再接。",
        "wrap": "A 和 K 相連：K 後面接 A，A 後面接 K，一列可以繞回來。",
        "tunnel": "隧道：一列的一邊接到底之後，另一邊在靠近的地方封住，改從另一端（A 或 K）往中間接。",
    },
    "layout.sides": {
        "either": "一列從 7 往哪邊先接都可以。",
        "high_first": "先往上接：8 沒下之前不能出 6。",
        "low_first": "先往下接：6 沒下之前不能出 8。",
        "both_first": "6 和 8 都下了，這一列才能再往外接。",
    },
    "turn.must_play": {
        "yes": "輪到時出一張接得上的牌，或出 7 開新的一列。有牌可出就一定要出。",
        "no": "輪到時出一張接得上的牌，或出 7 開新的一列；還有過牌次數時，即使有牌可出也可以過。",
    },
    "turn.extra_after_end": {
        "may": "出了一列的最後一張（A 或 K）可以再出一張，也可以不出。",
        "must": "出了一列的最後一張（A 或 K）要再出一張，只要有牌可出。",
    },
    "turn.stuck": {
        "cover": "沒有牌可出的人要蓋牌：自選一張牌蓋在自己面前；蓋的牌最後算扣分。",
        "pass": "沒有牌可出的人過牌（pass）。",
    },
    "turn.cover_sevens": {"yes": "7 也可以蓋。", "no": "7 不能蓋。"},
    "turn.pass_limit": {"none": "過牌不限次數。", "*": "每人一局可以過 {pass_limit} 次。"},
    "turn.out_of_passes": {
        "burst": "過牌次數用完又沒牌可出，就爆掉：整手牌攤到桌上各就各位，退出這局，排最後。",
        "cover": "過牌次數用完又沒牌可出，就要蓋一張牌。",
    },
    "turn.pass_takes": {
        "chosen": "過牌的人要向上一位還有牌的人拿一張牌，由對方挑一張蓋著交過來。",
    },
    "turn.draw": {
        "one": "沒牌可出時從牌堆摸一張，接得上可以馬上出；牌堆摸完後就過牌。",
    },
    "ending.method": {
        "all_empty": "手牌出完或蓋完的人就離場；每個人都沒牌了，這局才結束。",
        "first_out": "有人出完最後一張牌，這局立刻結束，他就是贏家。",
        "one_left": "依出完的先後排名；只剩一個人手上還有牌時，這局結束。",
    },
    "ending.stall": {
        "*": "如果還有牌的人連續 {stall_rounds} 輪都過牌，其間什麼都沒發生，這局就地結束。",
    },
    "scoring.method": {
        "covering": "每人的總分是獎分減去自己蓋牌的點數（A 算 1……K 算 13）。總分最高的人贏，"
        "向每個總分為負的人收錢。",
        "platform": "每人的總分是獎分減去自己蓋牌的點數（A 算 1……K 算 13）。總分最高的人贏，"
        "其他人付給贏家。",
        "first_out": "最先出完的人贏；其他人不排名，也不算錢。",
        "chips": "開局前每人先下底；每過一次牌要放籌碼進彩池，最先出完的人拿走彩池。",
        "placement": "依出完的先後排名：最後還拿著牌的人排在所有出完的人後面，爆掉的人排最後，"
        "越早爆越後面。",
    },
    "scoring.stake": "底分：每筆輸贏乘以 {stake}。",
    "scoring.bust_above": "爆點：付錢的人蓋牌點數超過 {bust_above} 就付 ×{bust_multiplier}"
    "（剛好 {bust_above} 不算爆）。",
    "scoring.bust_multiplier": "爆點時付的錢乘以 {bust_multiplier}。",
    "scoring.last_seven_bonus": "最後一張用 7 出完（尾張七）加 {last_seven_bonus} 分。",
    "scoring.completion_bonus": "出牌使一種花色 13 張全部上桌（接龍）的人，每次加 {completion_bonus} 分。",
    "scoring.clean_bonus": "一張都沒蓋就全部出完（全脫手）加 {clean_bonus} 分。",
    "scoring.big_head": "付錢的人中總分唯一最低的是大頭，付 ×{big_head}。",
    "scoring.middle_head": "付錢的人中總分唯一第二低的是中頭，付 ×{middle_head}。",
    "scoring.winner_multiplier.last_seven": "贏家以尾張七出完，收 ×{last_seven}。",
    "scoring.winner_multiplier.all_covered": "贏家全部蓋牌，收 ×{all_covered}。",
    "scoring.winner_multiplier.clean": "贏家一張都沒蓋（全脫手），收 ×{clean}。",
    "scoring.ante": "開局前每人下底 {ante} 個籌碼。",
    "scoring.pass_cost": "每過一次牌放 {pass_cost} 個籌碼進彩池。",
    "scoring.settlement": {
        "heads": "輸家依總分由好到壞分成小頭、中頭、大頭，各付自己那一頭的固定金額。",
        "difference": "點差：每個輸家付（贏家總分 − 自己總分）× {rate}。",
    },
    "scoring.head_amounts.small": "小頭付 {small}。",
    "scoring.head_amounts.middle": "中頭付 {middle}。",
    "scoring.head_amounts.big": "大頭付 {big}。",
    "scoring.rate": "點差每一分 {rate}。",
    "scoring.closure_bonus": "接完（或斬掉）一種花色的獎分依它的 7 開出的順序：第 1 門（門牌花色）、"
    "第 2、第 3、第 4 門：{closure_bonus}。",
    "scoring.all_covered_total": "十三蓋（全部蓋牌）的人總分算 {all_covered_total}，不管蓋了什麼。",
    "scoring.all_covered_busts": {
        "yes": "十三蓋的輸家蓋牌點數超過爆點，照樣付雙倍。",
        "no": "十三蓋的人不會爆。",
    },
    "scoring.melds": {
        "yes": "蓋牌中組成同花順（同花色五張連號）、鐵支（四張同點）或葫蘆（三張同點加一對）的牌不算點數。",
        "no": "蓋的牌每張都算，牌型不扣除。",
    },
    "scoring.fee": {"*": "贏家收的錢，莊家抽 {fee}。"},
    "scoring.place_points": {
        "none": "比賽按名次給分：第一名得（人數 − 1）分，依次遞減到最後一名 0 分。",
        "*": "比賽按名次給分，從第一名起：{place_points}。",
    },
    "session.hands": "連打 {hands} 局，輸贏一局一局累計。",
    "session.bankroll": {"*": "每人帶 {bankroll} 上桌；付不出錢的人讓這場結束。"},
    "match.games": {"*": "一場比賽打 {games} 局；比賽分最多的人贏，同分看最後一局誰名次高。"},
}

READINGS: dict[str, str] = {
    "meld-choice": "蓋的牌能組成不只一種牌型組合時，先取同花順最多的，再取鐵支最多的，再取葫蘆最多的，"
    "最後取不算的點數最多的。",
    "zhanlong-bonus-by-order": "斬龍在出 A 或 K 時封住花色；斬掉的獎分用和接龍一樣的開門順序表。",
    "cover-after-passes-finishes": "過牌用完改成蓋牌時，用蓋牌把手牌蓋完也算出完。",
    "middle-ties-share-label": "排名中間同分的人共用該名次的頭（1、2、2、4 名：兩人都是小頭，中頭沒人）。",
    "opening-card-compulsory": "即使可以自願過牌，必須開局的那張牌仍然要出：拿著它的人不能用過牌代替。",
    "sevens-placed-at-once": "發完牌後 7 一次全部擺上桌，按 ♠ ♥ ♦ ♣ 的順序記在原本拿著的人名下；擺 7 不算任何人的一手。",
    "pass-limit-zero": "過牌次數為 0 就是完全不能過：能出就得出，沒牌可出立刻照用完次數的規則處理（爆掉或蓋牌）；"
    "過牌永遠不能讓該開局的人跳過開局牌。",
    "no-ace-high-straight-flush": "10-J-Q-K-A 不算同花順（A 在 2 之下）；A-2-3-4-5 算。",
    "tunnel-closes-next-to-reach": "隧道中封住的一邊，是緊鄰這列那邊已經接到的牌封住（紅心接到 5……K 時封在 ♥4），"
    "不一定緊鄰 7。",
    "all-covered-never-busts": "預設十三蓋的人蓋的牌不算點，所以輸了也不會爆；設定 scoring.all_covered_busts 時，"
    "扣除牌型後點數超過爆點就付雙倍。",
    "burst-on-own-turn": "過牌用完又沒牌可出的人，輪到自己時才爆，記在把回合交給他的那一手之後；可能好幾個人接連爆掉。",
    "bust-after-melds": "爆點是用扣除牌型之後剩下的蓋牌點數來算。",
}

GLOSSARY = [
    ("排七", "以 7 為中心、按花色接牌的遊戲"),
    ("接龍", "一種花色 13 張全部上桌；也指這種玩法"),
    ("斬龍", "出了 A 或 K 就把該花色封住的玩法"),
    ("門牌", "開打前切出的一張牌，決定第一門花色"),
    ("蓋牌", "無牌可出時把一張牌蓋在自己面前"),
    ("爆點", "蓋牌點數超過上限，付的錢加倍"),
    ("全脫手／脫手", "一張都沒蓋就把牌出完"),
    ("尾張七", "最後一張用 7 出完"),
    ("十三蓋", "全部 13 張都蓋掉"),
    ("大頭／中頭／小頭", "輸家按總分由低到高的稱呼"),
    ("點差", "按贏家與輸家的分差付錢"),
    ("底分", "每筆輸贏的倍數"),
    ("過牌", "這一手不出牌（pass）"),
    ("爆掉", "過牌用完又沒牌可出，整手攤開退出"),
]
