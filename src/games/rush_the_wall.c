/* rush_the_wall.c — Rush the Wall: 1-4 Caledonian clans (plus 0-2 neutral clans) rush six
 * forts of Hadrian's Wall a round, three rounds. Hidden planning, then one reveal per fort with
 * warrior and fort effects, resolved in the order of ruling RW-6. Rulings: docs/rules/rush-the-wall.md. */
#include <cjson/cJSON.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>

#include "games/rush_the_wall.h"

/* ---- names ---- */

static const char *const warrior_word[RTW_KINDS] = {"filchy", "qween", "druhid", "zvord", "archr",
                                                    "horsie", "axx", "chariott", "laird"};
static const char *const warrior_name[RTW_KINDS] = {"Filchy", "Qween", "Dru'hid", "Zvord", "Arch'r",
                                                    "Horsie", "Axx", "Ch'ariott", "Laird"};
static const char warrior_letter[RTW_KINDS + 1] = "fqdzahxcl";
static const char *const fort_word[RTW_FORT_KINDS] = {"unwary", "signal", "tax", "legion", "dinary"};
static const char *const fort_name[RTW_FORT_KINDS] = {"Unwary", "Signal", "Tax-Collector's",
                                                      "Legion", "Fort-Dinary"};
static const char fort_letter[RTW_FORT_KINDS + 1] = "ustld";
static const char *const clan_word[RTW_MAX_CLANS] = {"green", "red", "gold", "blue"};
static const char *const clan_name[RTW_MAX_CLANS] = {"Green", "Red", "Gold", "Blue"};
static const char *const phase_word[RTW_PHASES] = {"plan", "zvord", "qween", "druhid", "signal",
                                                   "tax", "axx", "horsie", "over"};

#define ALL_WARRIORS ((uint16_t)((1u << RTW_KINDS) - 1))
#define ALL_FORTS ((uint32_t)((1u << RTW_FORTS) - 1))
#define BIT(k) ((uint16_t)(1u << (k)))

/* ---- small helpers on the state ---- */

static int popcount(uint32_t x)
{
    return __builtin_popcount(x);
}

static int lowest_bit(uint32_t x)
{
    return __builtin_ctz(x);
}

static bool is_player(const rtw_state *s, int clan)
{
    return clan >= 0 && clan < s->players;
}

/* The warrior a clan revealed this turn (its slot at the current position). */
static int revealed(const rtw_state *s, int clan)
{
    return s->slot[clan][s->turn];
}

static int strength_of(const rtw_state *s, uint32_t mask)
{
    int total = 0;
    for (; mask; mask &= mask - 1)
        total += s->cards.strength[lowest_bit(mask)];
    return total;
}

/* RW-16 / RW-11: the weakest warrior of a mask by printed strength (all strengths differ,
 * RTW-P4). mask != 0. */
static int weakest(const rtw_state *s, uint32_t mask)
{
    int best = lowest_bit(mask);
    for (mask &= mask - 1; mask; mask &= mask - 1) {
        int k = lowest_bit(mask);
        if (s->cards.strength[k] < s->cards.strength[best])
            best = k;
    }
    return best;
}

static int legions(const rtw_state *s, int clan)
{
    int n = 0;
    for (uint32_t m = s->forts[clan]; m; m &= m - 1)
        n += s->cards.fort_kind[lowest_bit(m)] == RTW_LEGION;
    return n;
}

static int fort_total(const rtw_state *s, int clan)
{
    int total = 0;
    for (uint32_t m = s->forts[clan]; m; m &= m - 1)
        total += s->cards.fort_value[lowest_bit(m)];
    return total;
}

/* Two forts are the same card for the player when kind and value agree. */
static bool same_fort(const rtw_state *s, int a, int b)
{
    return s->cards.fort_kind[a] == s->cards.fort_kind[b] &&
           s->cards.fort_value[a] == s->cards.fort_value[b];
}

/* RW-17: the forts a Tax-Collector's capturer may pay, one id per distinct card (the lowest
 * id), so identical forts make one action. */
static uint32_t tax_choices(const rtw_state *s)
{
    uint32_t others = s->forts[s->capturer] & ~(1u << s->captured), out = 0;
    for (uint32_t m = others; m; m &= m - 1) {
        int f = lowest_bit(m);
        bool dup = false;
        for (uint32_t o = out; o && !dup; o &= o - 1)
            dup = same_fort(s, f, lowest_bit(o));
        if (!dup)
            out |= 1u << f;
    }
    return out;
}

/* RW-9: what a Horsie clan may discard: a face-up warrior other than Horsie, else Horsie. */
static uint16_t horsie_choices(const rtw_state *s, int clan)
{
    uint16_t others = (uint16_t)(s->up[clan] & ~BIT(RTW_HORSIE));
    return others ? others : (uint16_t)(s->up[clan] & BIT(RTW_HORSIE));
}

/* RW-7 / RW-15: the rivals whose warrior revealed this turn is still face up. */
static uint16_t charm_choices(const rtw_state *s, int qween_clan)
{
    uint16_t out = 0;
    for (int c = 0; c < s->clans; c++)
        if (c != qween_clan && (s->up[c] & BIT(revealed(s, c))))
            out |= BIT(c);
    return out;
}

/* ---- the card table: parsing, defaults ---- */

extern const char rp_rush_the_wall_cards_text[];

static int word_index(const char *const *words, int n, const char *w)
{
    for (int i = 0; i < n; i++)
        if (strcmp(words[i], w) == 0)
            return i;
    return -1;
}

/* A whole decimal integer within [lo, hi]. */
static bool parse_int_range(const char *text, long lo, long hi, long *out)
{
    if (!*text)
        return false;
    char *end = NULL;
    long v = strtol(text, &end, 10);
    if (*end || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

/* Split text (modified) into words at spaces, tabs and carriage returns; returns the count,
 * or max + 1 when there are more than max (thread-safe, unlike strtok). */
static int split_words(char *text, char **words, int max)
{
    int n = 0;
    for (char *p = text;;) {
        while (*p == ' ' || *p == '\t' || *p == '\r')
            *p++ = '\0';
        if (!*p)
            return n;
        if (n == max)
            return max + 1;
        words[n++] = p;
        while (*p && *p != ' ' && *p != '\t' && *p != '\r')
            p++;
    }
}

/* One line of a card file: "warrior NAME STRENGTH" or "fort KIND VALUE". */
static int parse_card_line(char *line, const char *source, int lineno, rtw_cards *c,
                           uint16_t *seen, int *nforts, rp_error *err)
{
    char *words[3];
    int n = split_words(line, words, 3);
    if (n > 3)
        return rp_fail(err, RP_EPARSE, "%s line %d: too many words (expected 3)", source,
                       lineno);
    if (n == 0)
        return RP_OK;
    if (n != 3)
        return rp_fail(err, RP_EPARSE, "%s line %d: expected 'warrior NAME STRENGTH' or "
                       "'fort KIND VALUE'", source, lineno);
    long v;
    if (strcmp(words[0], "warrior") == 0) {
        int k = word_index(warrior_word, RTW_KINDS, words[1]);
        if (k < 0)
            return rp_fail(err, RP_EPARSE, "%s line %d: unknown warrior '%s'", source, lineno,
                           words[1]);
        if (*seen & BIT(k))
            return rp_fail(err, RP_EPARSE, "%s line %d: warrior '%s' given twice", source,
                           lineno, words[1]);
        if (!parse_int_range(words[2], 0, 30, &v))
            return rp_fail(err, RP_EPARSE, "%s line %d: strength '%s' is not a number 0..30",
                           source, lineno, words[2]);
        *seen |= BIT(k);
        c->strength[k] = (int8_t)v;
        return RP_OK;
    }
    if (strcmp(words[0], "fort") == 0) {
        int k = word_index(fort_word, RTW_FORT_KINDS, words[1]);
        if (k < 0)
            return rp_fail(err, RP_EPARSE, "%s line %d: unknown fort kind '%s'", source,
                           lineno, words[1]);
        bool legion = k == RTW_LEGION;
        if (!parse_int_range(words[2], legion ? -30 : 1, legion ? -1 : 30, &v))
            return rp_fail(err, RP_EPARSE, "%s line %d: value '%s' is not a number %s", source,
                           lineno, words[2], legion ? "-30..-1 (a Legion subtracts)" : "1..30");
        if (*nforts == RTW_FORTS)
            return rp_fail(err, RP_EPARSE, "%s line %d: more than %d forts", source, lineno,
                           RTW_FORTS);
        c->fort_kind[*nforts] = (uint8_t)k;
        c->fort_value[*nforts] = (int8_t)v;
        ++*nforts;
        return RP_OK;
    }
    return rp_fail(err, RP_EPARSE, "%s line %d: unknown card type '%s' (warrior or fort)",
                   source, lineno, words[0]);
}

int rtw_cards_parse(const char *text, const char *source, rtw_cards *out, rp_error *err)
{
    rtw_cards c;
    memset(&c, 0, sizeof c);
    uint16_t seen = 0;
    int nforts = 0, lineno = 0;
    for (const char *p = text; *p;) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        lineno++;
        char line[256];
        if (len >= sizeof line)
            return rp_fail(err, RP_EPARSE, "%s line %d: line too long", source, lineno);
        memcpy(line, p, len);
        line[len] = '\0';
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        int rc = parse_card_line(line, source, lineno, &c, &seen, &nforts, err);
        if (rc < 0)
            return rc;
        p = eol ? eol + 1 : p + len;
    }
    if (seen != ALL_WARRIORS) {
        int k = lowest_bit(~seen & ALL_WARRIORS);
        return rp_fail(err, RP_EPARSE, "%s: warrior '%s' is missing (all nine are needed)",
                       source, warrior_word[k]);
    }
    if (nforts != RTW_FORTS)
        return rp_fail(err, RP_EPARSE, "%s: %d forts, expected exactly %d", source, nforts,
                       RTW_FORTS);
    for (int a = 0; a < RTW_KINDS; a++)
        for (int b = a + 1; b < RTW_KINDS; b++)
            if (c.strength[a] == c.strength[b])
                return rp_fail(err, RP_EPARSE, "%s: warriors '%s' and '%s' have the same "
                               "strength %d; they must differ so that the weakest warrior is "
                               "one (RW-16, RTW-P4)", source, warrior_word[a], warrior_word[b],
                               c.strength[a]);
    *out = c;
    return RP_OK;
}

static rtw_cards default_cards;
static once_flag default_once = ONCE_FLAG_INIT;

/* Parsed once: the embedded file is part of the build, so a failure is a build error. */
static void parse_default_cards(void)
{
    rp_error err;
    if (rtw_cards_parse(rp_rush_the_wall_cards_text, "data/rush-the-wall.cards", &default_cards,
                        &err) < 0) {
        fprintf(stderr, "rush-the-wall: embedded card data is broken: %s\n", err.msg);
        abort();
    }
}

const rtw_cards *rtw_default_cards(void)
{
    call_once(&default_once, parse_default_cards);
    return &default_cards;
}

/* Read a cards=FILE option into a card table. */
static int load_cards_file(const char *path, rtw_cards *out, rp_error *err)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return rp_fail(err, RP_EIO, "cards=%s: cannot open the file", path);
    static const size_t max = 65536;
    char *text = malloc(max + 1);
    if (!text) {
        fclose(f);
        return rp_fail(err, RP_EIO, "cards=%s: out of memory", path);
    }
    size_t n = fread(text, 1, max + 1, f);
    bool bad = ferror(f) != 0;
    fclose(f);
    int rc;
    if (bad)
        rc = rp_fail(err, RP_EIO, "cards=%s: read error", path);
    else if (n > max)
        rc = rp_fail(err, RP_EPARSE, "cards=%s: file larger than %zu bytes", path, max);
    else if (memchr(text, '\0', n))
        rc = rp_fail(err, RP_EPARSE, "cards=%s: not a text file", path);
    else {
        text[n] = '\0';
        rc = rtw_cards_parse(text, path, out, err);
    }
    free(text);
    return rc;
}

/* ---- setting up rounds ---- */

void rtw_arrange_wall(const rtw_cards *cards, const uint8_t draw[RTW_SLOTS],
                      uint8_t wall[RTW_SLOTS])
{
    int hi = -1, lo = -1;
    for (int i = RTW_SLOTS - 1; i >= 0; i--) { /* ties: nearest the right end */
        int v = cards->fort_value[draw[i]];
        if (v > 0 && (hi < 0 || v > cards->fort_value[draw[hi]]))
            hi = i;
    }
    for (int i = 0; i < RTW_SLOTS; i++) { /* ties: nearest the left end */
        int v = cards->fort_value[draw[i]];
        if (v > 0 && (lo < 0 || v < cards->fort_value[draw[lo]]))
            lo = i;
    }
    if (hi < 0) { /* no positive fort: nothing moves */
        memcpy(wall, draw, RTW_SLOTS);
        return;
    }
    /* RTW-P1: a lone positive fort is moved right, then left (the text's order): it ends left. */
    int n = 0;
    wall[n++] = draw[lo];
    for (int i = 0; i < RTW_SLOTS; i++)
        if (i != hi && i != lo)
            wall[n++] = draw[i];
    if (hi != lo)
        wall[n++] = draw[hi];
}

/* RW-4, RW-5, RW-11: draw the round's wall, deal each player clan 7 hidden warriors and lay
 * each neutral clan's 6 random warriors in random order; the first clan starts planning. */
static void start_round(rtw_state *s, int round)
{
    s->round = (uint8_t)round;
    s->turn = 0;
    rtw_arrange_wall(&s->cards, &s->deck[RTW_SLOTS * round], s->wall);
    for (int c = 0; c < s->clans; c++) {
        uint8_t order[RTW_KINDS] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
        rp_rng_shuffle_u8(&s->rng, order, RTW_KINDS);
        uint16_t m = 0;
        int n = is_player(s, c) ? RTW_DRAW : RTW_SLOTS;
        for (int i = 0; i < n; i++)
            m |= BIT(order[i]);
        s->drawn[c] = m;
        s->up[c] = 0;
        if (is_player(s, c)) {
            s->hand[c] = m;
            memset(s->slot[c], RTW_NONE, RTW_SLOTS);
        } else {
            s->hand[c] = 0;
            memcpy(s->slot[c], order, RTW_SLOTS);
        }
    }
    s->phase = RTW_PLAN;
    s->actor = 0;
    s->next_slot = 0;
    s->capturer = -1;
    s->captured = RTW_NONE;
    s->keep = 0;
}

/* ---- turn resolution (RW-6) ---- */

enum { ST_REVEAL, ST_DRUHID, ST_FORT, ST_SIGNAL, ST_AXX, ST_DISCARD, ST_HORSIE, ST_ZVORD, ST_END };

static void wait_for(rtw_state *s, int phase, int actor)
{
    s->phase = (uint8_t)phase;
    s->actor = (uint8_t)actor;
}

/* RW-8: totals after Qween (qclan charms target, or -1), Filchy drop-outs, Arch'r ties. */
static void decide_capture(rtw_state *s, int qclan, int target)
{
    int total[RTW_MAX_CLANS];
    for (int c = 0; c < s->clans; c++)
        total[c] = strength_of(s, s->up[c]);
    if (target >= 0) { /* RW-7: her value replaced by the charmed one's, which counts 0 */
        int stolen = s->cards.strength[revealed(s, target)];
        total[qclan] += stolen - s->cards.strength[RTW_QWEEN];
        total[target] -= stolen;
    }
    int best = 0, tied = 0, archers = 0, archer = -1, winner = -1;
    for (int c = 0; c < s->clans; c++) {
        if (revealed(s, c) == RTW_FILCHY)
            continue;
        if (tied == 0 || total[c] > best) {
            best = total[c];
            tied = 0;
            archers = 0;
        } else if (total[c] < best) {
            continue;
        }
        tied++;
        winner = c;
        if (revealed(s, c) == RTW_ARCHR) { /* RW-15: a charmed Arch'r keeps its tie power */
            archers++;
            archer = c;
        }
    }
    if (tied > 1)
        winner = archers == 1 ? archer : -1;
    s->capturer = (int8_t)winner;
    if (winner >= 0)
        return;
    int t = s->turn;
    if (s->variant) { /* RW-13, RW-19: it stays; the rightmost goes; the rest slide right */
        s->gone |= 1u << s->wall[RTW_SLOTS - 1];
        for (int i = RTW_SLOTS - 1; i > t; i--)
            s->wall[i] = s->wall[i - 1];
    } else { /* RW-8: nobody captures, the fort is discarded */
        s->gone |= 1u << s->wall[t];
    }
    s->wall[t] = RTW_NONE;
}

/* Reveal, Ch'ariott collisions, then Qween: stops when a Qween's owner must pick. */
static bool stage_reveal(rtw_state *s)
{
    int chariotts = 0, qweens = 0, qclan = -1;
    s->capturer = -1;
    s->captured = RTW_NONE;
    s->keep = 0;
    for (int c = 0; c < s->clans; c++) {
        int k = revealed(s, c);
        s->up[c] |= BIT(k);
        chariotts += k == RTW_CHARIOTT;
        if (k == RTW_QWEEN) {
            qweens++;
            qclan = c;
        }
    }
    if (chariotts >= 2) /* RW-6: colliding Ch'ariotts are discarded before points */
        for (int c = 0; c < s->clans; c++)
            if (revealed(s, c) == RTW_CHARIOTT)
                s->up[c] &= (uint16_t)~BIT(RTW_CHARIOTT);
    int target = -1;
    /* RW-7, RW-14: two or more Qweens cancel; RW-11: a neutral's Qween has no power */
    if (qweens == 1 && is_player(s, qclan)) {
        uint16_t choices = charm_choices(s, qclan);
        if (popcount(choices) > 1) {
            wait_for(s, RTW_QWEEN_PICK, qclan);
            return true;
        }
        if (choices)
            target = lowest_bit(choices);
    }
    decide_capture(s, target >= 0 ? qclan : -1, target);
    return false;
}

/* RW-9 Dru'hid: take the fort at wall position pos; the leftmost fills its place (or, in the
 * variant RW-13, the forts left of it slide one place right). */
static void take_fort(rtw_state *s, int pos)
{
    int t = s->turn;
    int fort = s->wall[pos];
    if (pos != t) {
        if (s->variant) {
            for (int i = pos; i > t; i--)
                s->wall[i] = s->wall[i - 1];
        } else {
            s->wall[pos] = s->wall[t];
        }
    }
    s->wall[t] = RTW_NONE;
    s->captured = (uint8_t)fort;
    s->forts[s->capturer] |= 1u << fort;
}

static bool stage_druhid(rtw_state *s)
{
    int cap = s->capturer;
    if (cap < 0)
        return false;
    if (is_player(s, cap) && revealed(s, cap) == RTW_DRUHID && s->turn < RTW_SLOTS - 1) {
        wait_for(s, RTW_DRUHID_PICK, cap);
        return true;
    }
    take_fort(s, s->turn);
    return false;
}

/* RW-10 Signal, the capturer's own discard (RTW-P2): everything but a kept Axx goes right after,
 * so it discards its weakest warrior other than the Axx it revealed, Axx only when alone. */
static void signal_capturer(rtw_state *s)
{
    int cap = s->capturer;
    uint16_t up = s->up[cap];
    if (!up)
        return;
    uint16_t pool = up; /* RW-11: a neutral discards its weakest */
    if (is_player(s, cap) && revealed(s, cap) == RTW_AXX && (up & ~BIT(RTW_AXX)))
        pool = (uint16_t)(up & ~BIT(RTW_AXX));
    s->up[cap] &= (uint16_t)~BIT(weakest(s, pool));
}

/* RW-17: pay a fort for the Tax-Collector's; the neutral pays its lowest other fort. */
static bool tax(rtw_state *s)
{
    int cap = s->capturer;
    uint32_t choices = tax_choices(s);
    int pay;
    if (!choices) {
        pay = s->captured;
    } else if (is_player(s, cap)) {
        if (popcount(choices) > 1) {
            wait_for(s, RTW_TAX_PICK, cap);
            return true;
        }
        pay = lowest_bit(choices);
    } else {
        pay = lowest_bit(choices);
        for (uint32_t m = choices; m; m &= m - 1)
            if (s->cards.fort_value[lowest_bit(m)] < s->cards.fort_value[pay])
                pay = lowest_bit(m);
    }
    s->forts[cap] &= ~(1u << pay);
    s->gone |= 1u << pay;
    return false;
}

/* The captured fort's effect (RW-10, RW-18). Stops for a Tax choice or a Legion win. */
static bool stage_fort(rtw_state *s)
{
    int cap = s->capturer;
    if (cap < 0)
        return false;
    switch (s->cards.fort_kind[s->captured]) {
    case RTW_UNWARY:
        if (s->up[cap])
            s->keep |= BIT(weakest(s, s->up[cap]));
        return false;
    case RTW_SIGNAL:
        signal_capturer(s);
        return false;
    case RTW_TAX:
        return tax(s);
    case RTW_LEGION:
        if (is_player(s, cap) && legions(s, cap) >= RTW_LEGION_WIN) {
            s->winner = (int8_t)cap;
            wait_for(s, RTW_OVER, 0);
            return true;
        }
        return false;
    default:
        return false;
    }
}

/* RW-10 Signal for every other clan, in seat order (RW-6) from `from`. */
static bool stage_signal(rtw_state *s, int from)
{
    if (s->capturer < 0 || s->cards.fort_kind[s->captured] != RTW_SIGNAL)
        return false;
    for (int c = from; c < s->clans; c++) {
        uint16_t up = s->up[c];
        if (c == s->capturer || !up)
            continue;
        if (is_player(s, c) && popcount(up) > 1) {
            wait_for(s, RTW_SIGNAL_PICK, c);
            return true;
        }
        s->up[c] &= (uint16_t)~BIT(weakest(s, up));
    }
    return false;
}

/* RW-9 Axx: a player capturer may keep it; a neutral always does (RW-11). */
static bool stage_axx(rtw_state *s)
{
    int cap = s->capturer;
    if (cap < 0 || revealed(s, cap) != RTW_AXX || !(s->up[cap] & BIT(RTW_AXX)) ||
        (s->keep & BIT(RTW_AXX)))
        return false;
    if (is_player(s, cap)) {
        wait_for(s, RTW_AXX_PICK, cap);
        return true;
    }
    s->keep |= BIT(RTW_AXX);
    return false;
}

/* The capturer discards its face-up warriors but the kept ones. */
static void stage_discard(rtw_state *s)
{
    if (s->capturer >= 0)
        s->up[s->capturer] &= s->keep;
    s->keep = 0;
}

/* RW-9 Horsie for every clan that revealed her and did not capture, in seat order. RTW-P3: she
 * acts even if a Signal discarded her earlier this turn. */
static bool stage_horsie(rtw_state *s, int from)
{
    for (int c = from; c < s->clans; c++) {
        if (c == s->capturer || revealed(s, c) != RTW_HORSIE)
            continue;
        uint16_t choices = horsie_choices(s, c);
        if (!choices)
            continue;
        if (is_player(s, c) && popcount(choices) > 1) {
            wait_for(s, RTW_HORSIE_PICK, c);
            return true;
        }
        s->up[c] &= (uint16_t)~BIT(weakest(s, choices)); /* RW-11 for neutrals */
    }
    return false;
}

/* RW-6, RW-19 Zvord: a player clan takes back its hidden warriors and places them again. */
static bool stage_zvord(rtw_state *s, int from)
{
    int first = s->turn + 1;
    if (RTW_SLOTS - first < 2)
        return false;
    for (int c = from; c < s->players; c++) {
        if (revealed(s, c) != RTW_ZVORD)
            continue;
        uint16_t hand = 0;
        for (int i = first; i < RTW_SLOTS; i++) {
            hand |= BIT(s->slot[c][i]);
            s->slot[c][i] = RTW_NONE;
        }
        s->hand[c] = hand;
        s->next_slot = (uint8_t)first;
        wait_for(s, RTW_ZVORD_PLACE, c);
        return true;
    }
    return false;
}

/* RW-12: the next turn, else the next round, else the end. */
static bool stage_end(rtw_state *s)
{
    if (s->turn + 1 < RTW_SLOTS) {
        s->turn++;
        return false;
    }
    if (s->round + 1 < RTW_ROUNDS)
        start_round(s, s->round + 1);
    else
        wait_for(s, RTW_OVER, 0);
    return true;
}

/* Run the turn from `stage` (and, for per-clan stages, from clan `from`) until a clan must
 * decide or the game ends. */
static void resolve(rtw_state *s, int stage, int from)
{
    for (;;) {
        bool stop = false;
        switch (stage) {
        case ST_REVEAL: stop = stage_reveal(s); break;
        case ST_DRUHID: stop = stage_druhid(s); break;
        case ST_FORT: stop = stage_fort(s); break;
        case ST_SIGNAL: stop = stage_signal(s, from); break;
        case ST_AXX: stop = stage_axx(s); break;
        case ST_DISCARD: stage_discard(s); break;
        case ST_HORSIE: stop = stage_horsie(s, from); break;
        case ST_ZVORD: stop = stage_zvord(s, from); break;
        default:
            if (stage_end(s))
                return;
            stage = ST_REVEAL;
            from = 0;
            continue;
        }
        if (stop)
            return;
        stage++;
        from = 0;
    }
}

/* ---- the interface: init, players, legal actions, apply, returns ---- */

enum { OPT_NEUTRALS, OPT_VARIANT, OPT_CARDS };

static const rp_option_spec rtw_options[] = {
    {"neutrals", RP_OPT_INT, 0, 2, 0, NULL,
     "neutral clans (RW-11); total clans 2..4; one player alone gets 1 unless told", NULL},
    {"variant", RP_OPT_CHOICE, 0, 1, 0, "standard|vogel",
     "vogel: Eric B. Vogel's original rules for ties and Dru'hid (RW-13)", NULL},
    {"cards", RP_OPT_TEXT, 0, 0, 0, NULL,
     "a card file replacing data/rush-the-wall.cards (warrior strengths, fort mix)", NULL},
};

static int rtw_init(void *st, const rp_config *cfg, rp_error *err)
{
    int players = cfg->players;
    int neutrals = (int)cfg->value[OPT_NEUTRALS];
    if (!cfg->given[OPT_NEUTRALS] && players == 1)
        neutrals = 1; /* RTW-P5 */
    if (players + neutrals < 2)
        return rp_fail(err, RP_EINVAL, "players=1 needs neutrals=1 or 2 (RW-1: 2..4 clans)");
    if (players + neutrals > RTW_MAX_CLANS)
        return rp_fail(err, RP_EINVAL, "players=%d neutrals=%d: at most %d clans in all (RW-1)",
                       players, neutrals, RTW_MAX_CLANS);
    rtw_cards cards;
    if (cfg->given[OPT_CARDS]) {
        int rc = load_cards_file(cfg->text[OPT_CARDS], &cards, err);
        if (rc < 0)
            return rc;
    } else {
        cards = *rtw_default_cards();
    }
    rtw_state *s = st;
    memset(s, 0, sizeof *s);
    s->cards = cards;
    s->players = (uint8_t)players;
    s->neutrals = (uint8_t)neutrals;
    s->clans = (uint8_t)(players + neutrals);
    s->variant = (uint8_t)cfg->value[OPT_VARIANT];
    s->winner = -1;
    rp_rng_seed(&s->rng, cfg->seed, 0x52545741u);
    for (int i = 0; i < RTW_FORTS; i++)
        s->deck[i] = (uint8_t)i;
    rp_rng_shuffle_u8(&s->rng, s->deck, RTW_FORTS);
    start_round(s, 0);
    return RP_OK;
}

static int rtw_num_players(const void *st)
{
    return ((const rtw_state *)st)->players;
}

static int rtw_current_player(const void *st)
{
    const rtw_state *s = st;
    return s->phase == RTW_OVER ? RP_TERMINAL : s->actor;
}

static int list_mask(uint32_t mask, rp_action base, rp_action *out)
{
    int n = 0;
    for (; mask; mask &= mask - 1)
        out[n++] = base + (rp_action)lowest_bit(mask);
    return n;
}

static int rtw_legal_actions(const void *st, rp_action *out)
{
    const rtw_state *s = st;
    int a = s->actor;
    switch (s->phase) {
    case RTW_PLAN:
    case RTW_ZVORD_PLACE:
        return list_mask(s->hand[a], RTW_A_PLACE, out);
    case RTW_QWEEN_PICK:
        return list_mask(charm_choices(s, a), RTW_A_CHARM, out);
    case RTW_DRUHID_PICK: {
        int n = 0;
        for (int p = s->turn; p < RTW_SLOTS; p++)
            if (s->wall[p] != RTW_NONE)
                out[n++] = RTW_A_TAKE + (rp_action)p;
        return n;
    }
    case RTW_SIGNAL_PICK:
        return list_mask(s->up[a], RTW_A_DISCARD, out);
    case RTW_HORSIE_PICK:
        return list_mask(horsie_choices(s, a), RTW_A_DISCARD, out);
    case RTW_TAX_PICK:
        return list_mask(tax_choices(s), RTW_A_PAY, out);
    case RTW_AXX_PICK:
        out[0] = RTW_A_KEEP_AXX;
        out[1] = RTW_A_DROP_AXX;
        return 2;
    default:
        return 0;
    }
}

/* A placement (planning or after Zvord). Planning ends with the seventh warrior set aside
 * (RW-5); a Zvord re-placement ends when the last warrior goes to the last slot. */
static void apply_place(rtw_state *s, int kind)
{
    int a = s->actor;
    s->slot[a][s->next_slot++] = (uint8_t)kind;
    s->hand[a] &= (uint16_t)~BIT(kind);
    if (s->phase == RTW_PLAN) {
        if (s->next_slot < RTW_SLOTS)
            return;
        s->hand[a] = 0;
        s->next_slot = 0;
        if (a + 1 < s->players) {
            s->actor = (uint8_t)(a + 1);
            return;
        }
        resolve(s, ST_REVEAL, 0);
        return;
    }
    if (popcount(s->hand[a]) > 1)
        return;
    s->slot[a][s->next_slot] = (uint8_t)lowest_bit(s->hand[a]);
    s->hand[a] = 0;
    s->next_slot = 0;
    resolve(s, ST_ZVORD, a + 1);
}

static void rtw_apply(void *st, rp_action action)
{
    rtw_state *s = st;
    int a = s->actor;
    switch (s->phase) {
    case RTW_PLAN:
    case RTW_ZVORD_PLACE:
        apply_place(s, (int)(action - RTW_A_PLACE));
        return;
    case RTW_QWEEN_PICK:
        decide_capture(s, a, (int)(action - RTW_A_CHARM));
        resolve(s, ST_DRUHID, 0);
        return;
    case RTW_DRUHID_PICK:
        take_fort(s, (int)(action - RTW_A_TAKE));
        resolve(s, ST_FORT, 0);
        return;
    case RTW_SIGNAL_PICK:
        s->up[a] &= (uint16_t)~BIT(action - RTW_A_DISCARD);
        resolve(s, ST_SIGNAL, a + 1);
        return;
    case RTW_HORSIE_PICK:
        s->up[a] &= (uint16_t)~BIT(action - RTW_A_DISCARD);
        resolve(s, ST_HORSIE, a + 1);
        return;
    case RTW_TAX_PICK:
        s->forts[a] &= ~(1u << (action - RTW_A_PAY));
        s->gone |= 1u << (action - RTW_A_PAY);
        resolve(s, ST_AXX, 0);
        return;
    case RTW_AXX_PICK:
        if (action == RTW_A_KEEP_AXX)
            s->keep |= BIT(RTW_AXX);
        resolve(s, ST_DISCARD, 0);
        return;
    default:
        return;
    }
}

/* RW-12 tie-breaks among player clans (RTW-P6: neutrals cannot win, so they are not ranked):
 * fort total, then number of forts, then highest single fort. */
static int compare_clans(const rtw_state *s, int a, int b)
{
    int ta = fort_total(s, a), tb = fort_total(s, b);
    if (ta != tb)
        return ta > tb ? 1 : -1;
    int na = popcount(s->forts[a]), nb = popcount(s->forts[b]);
    if (na != nb)
        return na > nb ? 1 : -1;
    int ha = -1000, hb = -1000;
    for (uint32_t m = s->forts[a]; m; m &= m - 1)
        if (s->cards.fort_value[lowest_bit(m)] > ha)
            ha = s->cards.fort_value[lowest_bit(m)];
    for (uint32_t m = s->forts[b]; m; m &= m - 1)
        if (s->cards.fort_value[lowest_bit(m)] > hb)
            hb = s->cards.fort_value[lowest_bit(m)];
    return (ha > hb) - (ha < hb);
}

/* The winning player clans as a mask (one bit, or several sharing the win). */
static uint32_t winners(const rtw_state *s)
{
    if (s->winner >= 0)
        return 1u << s->winner;
    int best = 0;
    uint32_t mask = 1;
    for (int c = 1; c < s->players; c++) {
        int cmp = compare_clans(s, c, best);
        if (cmp > 0) {
            best = c;
            mask = 1u << c;
        } else if (cmp == 0) {
            mask |= 1u << c;
        }
    }
    return mask;
}

static void rtw_returns(const void *st, double *out)
{
    const rtw_state *s = st;
    uint32_t w = winners(s);
    for (int c = 0; c < s->players; c++)
        out[c] = (w >> c) & 1 ? 1.0 / popcount(w) : 0.0;
}

/* ---- action notation ---- */

/* A fort's short label, kind then value: "legion-2", "dinary5", "tax8". */
static int fort_label(const rtw_cards *c, int f, char *buf, size_t size)
{
    const char *word = fort_word[c->fort_kind[f]];
    size_t n = strlen(word);
    int v = c->fort_value[f];
    unsigned u = (unsigned)(v < 0 ? -v : v);
    char tail[8];
    int t = 0;
    if (v < 0)
        tail[t++] = '-';
    if (u >= 10)
        tail[t++] = (char)('0' + u / 10);
    tail[t++] = (char)('0' + u % 10);
    if (n + (size_t)t >= size)
        return RP_ENOSPACE;
    memcpy(buf, word, n);
    memcpy(buf + n, tail, (size_t)t);
    buf[n + (size_t)t] = '\0';
    return (int)n + t;
}

/* Two words joined by a space into buf; the length or RP_ENOSPACE. */
static int two_words(char *buf, size_t size, const char *verb, const char *arg)
{
    size_t a = strlen(verb), b = strlen(arg);
    if (a + 1 + b >= size)
        return RP_ENOSPACE;
    memcpy(buf, verb, a);
    buf[a] = ' ';
    memcpy(buf + a + 1, arg, b + 1);
    return (int)(a + 1 + b);
}

static int rtw_action_to_text(const void *st, rp_action action, char *buf, size_t size)
{
    const rtw_state *s = st;
    char arg[32];
    if (action < RTW_A_HIDDEN)
        return two_words(buf, size, "place", warrior_word[action]);
    if (action == RTW_A_HIDDEN)
        return two_words(buf, size, "place", "hidden");
    if (action < RTW_A_TAKE)
        return two_words(buf, size, "charm", clan_word[action - RTW_A_CHARM]);
    if (action < RTW_A_DISCARD) {
        arg[0] = (char)('1' + (action - RTW_A_TAKE));
        arg[1] = '\0';
        return two_words(buf, size, "take", arg);
    }
    if (action < RTW_A_PAY)
        return two_words(buf, size, "discard", warrior_word[action - RTW_A_DISCARD]);
    if (action < RTW_A_KEEP_AXX) {
        fort_label(&s->cards, (int)(action - RTW_A_PAY), arg, sizeof arg);
        return two_words(buf, size, "pay", arg);
    }
    if (action == RTW_A_KEEP_AXX)
        return two_words(buf, size, "keep", "axx");
    if (action == RTW_A_DROP_AXX)
        return two_words(buf, size, "drop", "axx");
    return RP_EINVAL;
}

/* The fort id "pay LABEL" names here: the Tax choice with that label, else the first such
 * card of the table (which will then not be legal). */
static int fort_from_label(const rtw_state *s, const char *label, rp_action *out, rp_error *err)
{
    char buf[32];
    if (s->phase == RTW_TAX_PICK) {
        for (uint32_t m = tax_choices(s); m; m &= m - 1) {
            fort_label(&s->cards, lowest_bit(m), buf, sizeof buf);
            if (strcmp(buf, label) == 0) {
                *out = RTW_A_PAY + (rp_action)lowest_bit(m);
                return RP_OK;
            }
        }
    }
    for (int f = 0; f < RTW_FORTS; f++) {
        fort_label(&s->cards, f, buf, sizeof buf);
        if (strcmp(buf, label) == 0) {
            *out = RTW_A_PAY + (rp_action)f;
            return RP_OK;
        }
    }
    return rp_fail(err, RP_EPARSE, "no fort '%s' (forts are written like legion-2 or dinary5)",
                   label);
}

static int rtw_action_from_text(const void *st, const char *text, rp_action *out, rp_error *err)
{
    const rtw_state *s = st;
    char copy[64], *word[2];
    int n = 0;
    if (strlen(text) < sizeof copy) {
        memcpy(copy, text, strlen(text) + 1);
        n = split_words(copy, word, 2);
    }
    const char *verb = n > 0 ? word[0] : "", *arg = n > 1 ? word[1] : "";
    if (n != 2)
        return rp_fail(err, RP_EPARSE, "'%s': expected two words such as 'place axx', "
                       "'charm red', 'take 4', 'discard horsie', 'pay legion-2', 'keep axx'",
                       text);
    int k;
    if (strcmp(verb, "place") == 0 || strcmp(verb, "discard") == 0) {
        bool place = verb[0] == 'p';
        if (place && strcmp(arg, "hidden") == 0) {
            *out = RTW_A_HIDDEN;
            return RP_OK;
        }
        if ((k = word_index(warrior_word, RTW_KINDS, arg)) < 0)
            return rp_fail(err, RP_EPARSE, "unknown warrior '%s' (filchy, qween, druhid, zvord, "
                           "archr, horsie, axx, chariott, laird)", arg);
        *out = (place ? RTW_A_PLACE : RTW_A_DISCARD) + (rp_action)k;
        return RP_OK;
    }
    if (strcmp(verb, "charm") == 0) {
        if ((k = word_index(clan_word, RTW_MAX_CLANS, arg)) < 0)
            return rp_fail(err, RP_EPARSE, "unknown clan '%s' (green, red, gold, blue)", arg);
        *out = RTW_A_CHARM + (rp_action)k;
        return RP_OK;
    }
    if (strcmp(verb, "take") == 0) {
        long p;
        if (!parse_int_range(arg, 1, RTW_SLOTS, &p))
            return rp_fail(err, RP_EPARSE, "take '%s': expected a wall position 1..6", arg);
        *out = RTW_A_TAKE + (rp_action)(p - 1);
        return RP_OK;
    }
    if (strcmp(verb, "pay") == 0)
        return fort_from_label(s, arg, out, err);
    if ((strcmp(verb, "keep") == 0 || strcmp(verb, "drop") == 0) && strcmp(arg, "axx") == 0) {
        *out = verb[0] == 'k' ? RTW_A_KEEP_AXX : RTW_A_DROP_AXX;
        return RP_OK;
    }
    return rp_fail(err, RP_EPARSE, "unknown move '%s' (place, charm, take, discard, pay, "
                   "keep axx, drop axx)", text);
}

/* ---- consistency of a state (used on every loaded state, and by the tests) ---- */

/* Every slot kind of a clan as a mask; false when a kind repeats or is out of range. */
static bool slot_mask(const rtw_state *s, int c, int from, int to, uint16_t *out, int *filled)
{
    uint16_t m = 0;
    *filled = 0;
    for (int i = from; i < to; i++) {
        int k = s->slot[c][i];
        if (k == RTW_NONE)
            continue;
        if (k >= RTW_KINDS || (m & BIT(k)))
            return false;
        m |= BIT(k);
        ++*filled;
    }
    *out = m;
    return true;
}

/* Which slots must hold a warrior: [0, filled_to) filled, [filled_to, 6) empty. */
static int slots_filled_to(const rtw_state *s, int c)
{
    if (!is_player(s, c))
        return RTW_SLOTS;
    if (s->phase == RTW_PLAN)
        return c < s->actor ? RTW_SLOTS : c == s->actor ? s->next_slot : 0;
    if (s->phase == RTW_ZVORD_PLACE && c == s->actor)
        return s->next_slot;
    return RTW_SLOTS;
}

static int check_clan(const rtw_state *s, int c, rp_error *err)
{
    const char *name = clan_word[c];
    if ((s->hand[c] | s->drawn[c] | s->up[c]) & ~ALL_WARRIORS)
        return rp_fail(err, RP_EINVAL, "%s: warrior mask out of range", name);
    uint16_t in_slots;
    int filled, to = slots_filled_to(s, c);
    if (!slot_mask(s, c, 0, RTW_SLOTS, &in_slots, &filled))
        return rp_fail(err, RP_EINVAL, "%s: a warrior is placed twice", name);
    for (int i = 0; i < RTW_SLOTS; i++)
        if ((i < to) != (s->slot[c][i] != RTW_NONE))
            return rp_fail(err, RP_EINVAL, "%s: slot %d should be %s in this phase", name,
                           i + 1, i < to ? "filled" : "empty");
    int hand_size = popcount(s->hand[c]);
    if (in_slots & s->hand[c])
        return rp_fail(err, RP_EINVAL, "%s: a warrior both placed and in hand", name);
    if ((in_slots | s->hand[c]) & ~s->drawn[c])
        return rp_fail(err, RP_EINVAL, "%s: a placed or held warrior was not drawn", name);
    if (!is_player(s, c)) {
        if (s->hand[c] || s->drawn[c] != in_slots)
            return rp_fail(err, RP_EINVAL, "%s: a neutral clan holds exactly its 6 placed "
                           "warriors (RW-11)", name);
    } else {
        if (popcount(s->drawn[c]) != RTW_DRAW)
            return rp_fail(err, RP_EINVAL, "%s: a clan draws exactly 7 warriors (RW-5)", name);
        int want = 0;
        if (s->phase == RTW_PLAN && c >= s->actor)
            want = RTW_DRAW - to;
        else if (s->phase == RTW_ZVORD_PLACE && c == s->actor)
            want = RTW_SLOTS - to;
        if (hand_size != want)
            return rp_fail(err, RP_EINVAL, "%s: %d warriors in hand, expected %d", name,
                           hand_size, want);
    }
    int shown = s->phase == RTW_PLAN ? 0 : s->turn + 1;
    uint16_t revealed_mask = 0;
    slot_mask(s, c, 0, shown, &revealed_mask, &filled);
    if (s->up[c] & ~revealed_mask)
        return rp_fail(err, RP_EINVAL, "%s: a face-up warrior was never revealed", name);
    if ((s->forts[c] & ~ALL_FORTS))
        return rp_fail(err, RP_EINVAL, "%s: fort out of range", name);
    if (is_player(s, c) && s->phase != RTW_OVER && legions(s, c) >= RTW_LEGION_WIN)
        return rp_fail(err, RP_EINVAL, "%s holds %d Legions but the game goes on (RW-18)", name,
                       legions(s, c));
    return RP_OK;
}

static int check_cards(const rtw_cards *c, rp_error *err)
{
    for (int k = 0; k < RTW_KINDS; k++) {
        if (c->strength[k] < 0 || c->strength[k] > 30)
            return rp_fail(err, RP_EINVAL, "warrior %s: strength %d out of 0..30",
                           warrior_word[k], c->strength[k]);
        for (int j = 0; j < k; j++)
            if (c->strength[j] == c->strength[k])
                return rp_fail(err, RP_EINVAL, "warriors: %s and %s have the same strength "
                               "(RTW-P4)", warrior_word[j], warrior_word[k]);
    }
    for (int f = 0; f < RTW_FORTS; f++) {
        int v = c->fort_value[f];
        if (c->fort_kind[f] >= RTW_FORT_KINDS)
            return rp_fail(err, RP_EINVAL, "fort %d: unknown kind", f);
        bool legion = c->fort_kind[f] == RTW_LEGION;
        if (legion ? (v < -30 || v > -1) : (v < 1 || v > 30))
            return rp_fail(err, RP_EINVAL, "fort %d: value %d out of range", f, v);
    }
    return RP_OK;
}

/* Every fort drawn so far is in exactly one place: the wall, a clan, or the discards. */
static int check_forts(const rtw_state *s, rp_error *err)
{
    uint32_t seen = 0, drawn = 0, round_draw = 0;
    for (int i = 0; i < RTW_FORTS; i++) {
        if (s->deck[i] >= RTW_FORTS || (seen & (1u << s->deck[i])))
            return rp_fail(err, RP_EINVAL, "deck: not an order of the 18 forts");
        seen |= 1u << s->deck[i];
        if (i < RTW_SLOTS * (s->round + 1))
            drawn |= 1u << s->deck[i];
        if (i / RTW_SLOTS == s->round)
            round_draw |= 1u << s->deck[i];
    }
    uint32_t placed = 0;
    for (int i = 0; i < RTW_SLOTS; i++) {
        int f = s->wall[i];
        if (f == RTW_NONE)
            continue;
        if (f >= RTW_FORTS || !(round_draw & (1u << f)) || (placed & (1u << f)))
            return rp_fail(err, RP_EINVAL, "wall: fort %d was not drawn this round", f);
        placed |= 1u << f;
    }
    if (s->gone & ~ALL_FORTS)
        return rp_fail(err, RP_EINVAL, "discarded forts out of range");
    uint32_t sets[RTW_MAX_CLANS + 1];
    sets[0] = s->gone;
    for (int c = 0; c < s->clans; c++)
        sets[c + 1] = s->forts[c];
    for (int i = 0; i <= s->clans; i++) {
        if (placed & sets[i])
            return rp_fail(err, RP_EINVAL, "a fort is in two places at once");
        placed |= sets[i];
    }
    if (placed != drawn)
        return rp_fail(err, RP_EINVAL, "the forts drawn so far are not all accounted for "
                       "(wall, clans, discards)");
    for (int c = s->clans; c < RTW_MAX_CLANS; c++)
        if (s->forts[c] || s->hand[c] || s->drawn[c] || s->up[c])
            return rp_fail(err, RP_EINVAL, "clan %s is not in this game", clan_word[c]);
    return RP_OK;
}

/* The wall's shape: positions before the current fort are empty; the current one is filled
 * until it is captured or discarded; the rest are filled. */
static int check_wall(const rtw_state *s, rp_error *err)
{
    int ph = s->phase, t = s->turn;
    bool current_open = ph == RTW_PLAN || ph == RTW_QWEEN_PICK || ph == RTW_DRUHID_PICK;
    for (int i = 0; i < RTW_SLOTS; i++) {
        bool filled = i > t || (i == t && current_open);
        if (filled != (s->wall[i] != RTW_NONE))
            return rp_fail(err, RP_EINVAL, "wall position %d should be %s", i + 1,
                           filled ? "a fort" : "empty");
    }
    if (ph == RTW_PLAN) {
        uint8_t want[RTW_SLOTS];
        rtw_arrange_wall(&s->cards, &s->deck[RTW_SLOTS * s->round], want);
        if (memcmp(want, s->wall, RTW_SLOTS) != 0)
            return rp_fail(err, RP_EINVAL, "wall: not in the order of RW-4 for this draw");
    }
    return RP_OK;
}

/* Per-phase preconditions that the decision and the rest of the turn rely on. */
static int check_phase(const rtw_state *s, rp_error *err)
{
    int ph = s->phase, a = s->actor, cap = s->capturer;
    if (ph == RTW_OVER) {
        if (a != 0 || s->next_slot != 0 || s->keep != 0)
            return rp_fail(err, RP_EINVAL, "actor, next, keep: must be 0 when the game is over");
        if (s->winner >= 0 && (!is_player(s, s->winner) ||
                               legions(s, s->winner) < RTW_LEGION_WIN))
            return rp_fail(err, RP_EINVAL, "winner: needs three Legions (RW-18)");
        return RP_OK;
    }
    if (s->winner != -1)
        return rp_fail(err, RP_EINVAL, "winner: set while the game goes on");
    if (a >= s->players)
        return rp_fail(err, RP_EINVAL, "actor: %d is not a player clan", a);
    if (ph == RTW_PLAN ? s->next_slot >= RTW_SLOTS
        : ph == RTW_ZVORD_PLACE ? (s->next_slot <= s->turn || s->next_slot > RTW_SLOTS - 2)
                                : s->next_slot != 0)
        return rp_fail(err, RP_EINVAL, "next: slot %d makes no sense in this phase",
                       s->next_slot + 1);
    if (ph == RTW_PLAN && s->turn != 0)
        return rp_fail(err, RP_EINVAL, "turn: planning happens before turn 1");
    if (s->keep && ph != RTW_AXX_PICK)
        return rp_fail(err, RP_EINVAL, "keep: only set before the capturer's Axx choice");
    if (ph == RTW_PLAN)
        return RP_OK;
    if (ph == RTW_QWEEN_PICK || ph == RTW_DRUHID_PICK) { /* just after the reveal */
        int chariotts = 0;
        for (int c = 0; c < s->clans; c++)
            chariotts += revealed(s, c) == RTW_CHARIOTT;
        for (int c = 0; c < s->clans; c++) {
            bool gone = chariotts >= 2 && revealed(s, c) == RTW_CHARIOTT;
            if (gone == !!(s->up[c] & BIT(revealed(s, c))))
                return rp_fail(err, RP_EINVAL, "%s: this turn's warrior should be %s",
                               clan_word[c], gone ? "discarded (RW-6)" : "face up");
        }
    }
    static const int needs[RTW_PHASES] = {
        [RTW_ZVORD_PLACE] = RTW_ZVORD, [RTW_QWEEN_PICK] = RTW_QWEEN,
        [RTW_DRUHID_PICK] = RTW_DRUHID, [RTW_AXX_PICK] = RTW_AXX,
        [RTW_HORSIE_PICK] = RTW_HORSIE, [RTW_SIGNAL_PICK] = -1, [RTW_TAX_PICK] = -1};
    if (needs[ph] >= 0 && revealed(s, a) != needs[ph])
        return rp_fail(err, RP_EINVAL, "phase %s: %s did not reveal %s", phase_word[ph],
                       clan_word[a], warrior_name[needs[ph]]);
    if (cap >= s->clans)
        return rp_fail(err, RP_EINVAL, "capturer: no clan %d", cap);
    if (s->captured != RTW_NONE && s->captured >= RTW_FORTS)
        return rp_fail(err, RP_EINVAL, "captured: no fort %d", s->captured);
    bool before_capture = ph == RTW_QWEEN_PICK || ph == RTW_DRUHID_PICK;
    bool needs_capture = ph == RTW_DRUHID_PICK || ph == RTW_SIGNAL_PICK || ph == RTW_TAX_PICK ||
                         ph == RTW_AXX_PICK;
    if (needs_capture && cap < 0)
        return rp_fail(err, RP_EINVAL, "capturer: phase %s needs one", phase_word[ph]);
    if (ph == RTW_QWEEN_PICK && cap != -1)
        return rp_fail(err, RP_EINVAL, "capturer: decided only after the Qween");
    if ((before_capture || cap < 0) != (s->captured == RTW_NONE))
        return rp_fail(err, RP_EINVAL, "captured: %s", s->captured == RTW_NONE
                       ? "the capturer's fort is missing" : "no fort was captured yet");
    /* a Tax-Collector's may already have been paid with itself (RW-17) */
    bool paid = ph == RTW_AXX_PICK && s->cards.fort_kind[s->captured] == RTW_TAX &&
                (s->gone & (1u << s->captured));
    if (needs_capture && !before_capture && !paid && !(s->forts[cap] & (1u << s->captured)))
        return rp_fail(err, RP_EINVAL, "captured: the capturer does not hold that fort");
    switch (ph) {
    case RTW_QWEEN_PICK: {
        int qweens = 0;
        for (int c = 0; c < s->clans; c++)
            qweens += revealed(s, c) == RTW_QWEEN;
        if (qweens != 1 || !charm_choices(s, a))
            return rp_fail(err, RP_EINVAL, "phase qween: needs one Qween and a rival warrior");
        break;
    }
    case RTW_DRUHID_PICK:
    case RTW_TAX_PICK:
    case RTW_AXX_PICK:
        if (cap != a)
            return rp_fail(err, RP_EINVAL, "phase %s: the capturer decides", phase_word[ph]);
        break;
    case RTW_SIGNAL_PICK:
    case RTW_HORSIE_PICK:
        if (cap == a)
            return rp_fail(err, RP_EINVAL, "phase %s: not for the capturer", phase_word[ph]);
        break;
    default:
        break;
    }
    if (ph == RTW_SIGNAL_PICK && (s->cards.fort_kind[s->captured] != RTW_SIGNAL || !s->up[a]))
        return rp_fail(err, RP_EINVAL, "phase signal: needs a captured Signal Fort and a "
                       "face-up warrior");
    if (ph == RTW_TAX_PICK) {
        if (s->captured >= RTW_FORTS || s->cards.fort_kind[s->captured] != RTW_TAX ||
            !(s->forts[a] & (1u << s->captured)) || !tax_choices(s))
            return rp_fail(err, RP_EINVAL, "phase tax: needs a captured Tax-Collector's Fort "
                           "and another fort to pay");
    }
    if (ph == RTW_AXX_PICK && (!(s->up[a] & BIT(RTW_AXX)) || (s->keep & ~s->up[a]) ||
                               (s->keep & BIT(RTW_AXX))))
        return rp_fail(err, RP_EINVAL, "phase axx: the Axx must be face up and not yet kept");
    if (ph == RTW_HORSIE_PICK && !horsie_choices(s, a))
        return rp_fail(err, RP_EINVAL, "phase horsie: nothing to discard");
    return RP_OK;
}

int rtw_check(const rtw_state *s, rp_error *err)
{
    if (s->players < 1 || s->players > RTW_MAX_CLANS || s->neutrals > 2 ||
        s->clans != s->players + s->neutrals || s->clans < 2 || s->clans > RTW_MAX_CLANS)
        return rp_fail(err, RP_EINVAL, "players/neutrals: 1..4 players, 0..2 neutrals, 2..4 "
                       "clans (RW-1)");
    if (s->variant > 1)
        return rp_fail(err, RP_EINVAL, "variant: standard or vogel");
    if (!(s->rng.inc & 1))
        return rp_fail(err, RP_EINVAL, "rng: the stream must be odd");
    if (s->round >= RTW_ROUNDS || s->turn >= RTW_SLOTS || s->phase >= RTW_PHASES)
        return rp_fail(err, RP_EINVAL, "round, turn or phase out of range");
    if (s->capturer < -1 || s->winner < -1 || s->winner >= s->clans)
        return rp_fail(err, RP_EINVAL, "capturer or winner out of range");
    int rc;
    if ((rc = check_cards(&s->cards, err)) < 0 || (rc = check_forts(s, err)) < 0 ||
        (rc = check_wall(s, err)) < 0)
        return rc;
    if (s->phase != RTW_OVER && s->actor >= s->players)
        return rp_fail(err, RP_EINVAL, "actor: %d is not a player clan", s->actor);
    for (int c = 0; c < s->clans; c++) /* before the phase checks, which read the slots */
        if ((rc = check_clan(s, c, err)) < 0)
            return rc;
    return check_phase(s, err);
}

/* ---- full-state notation ----
 * rtw1 players=P neutrals=N variant=standard|vogel warriors=S1,..,S9 forts=KV,..(18)
 *      rng=STATE,INC round=R turn=T phase=PH actor=A next=SLOT capturer=C|- captured=F|-
 *      keep=LETTERS|- winner=C|- deck=F,..(18) wall=F|-,..(6) gone=F,..|-
 *      green=SLOTS/HAND/DRAWN/UP/FORTS red=... (one per clan)
 * Warriors are letters f q d z a h x c l (Filchy .. Laird); fort kinds u s t l d; round, turn
 * and next are 1-based; SLOTS is six letters or '-'. */

/* Text is built by hand rather than with printf: states are printed at every step of the
 * tests and of tools, and formatted printing is slow (very slow under sanitizers). */
typedef struct text_out {
    char *buf;
    size_t size, len;
    bool full;
} text_out;

static void out_char(text_out *o, char ch)
{
    if (o->len + 1 >= o->size) {
        o->full = true;
        return;
    }
    o->buf[o->len++] = ch;
    o->buf[o->len] = '\0';
}

static void out_str(text_out *o, const char *str)
{
    for (; *str; str++)
        out_char(o, *str);
}

static void out_int(text_out *o, long v)
{
    char digits[24];
    int n = 0;
    unsigned long u = v < 0 ? 0UL - (unsigned long)v : (unsigned long)v;
    do {
        digits[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        out_char(o, '-');
    while (n)
        out_char(o, digits[--n]);
}

static void out_hex64(text_out *o, uint64_t v)
{
    for (int shift = 60; shift >= 0; shift -= 4)
        out_char(o, "0123456789abcdef"[(v >> shift) & 15]);
}

static void put_letters(text_out *o, uint32_t mask)
{
    if (!mask)
        out_char(o, '-');
    for (int k = 0; k < RTW_KINDS; k++)
        if (mask & BIT(k))
            out_char(o, warrior_letter[k]);
}

static void put_ids(text_out *o, uint32_t mask)
{
    if (!mask)
        out_char(o, '-');
    for (int f = 0, first = 1; f < RTW_FORTS; f++)
        if (mask & (1u << f)) {
            if (!first)
                out_char(o, ',');
            out_int(o, f);
            first = 0;
        }
}

/* " key=value", value -1 written as "-". */
static void put_field(text_out *o, const char *key, int v)
{
    out_char(o, ' ');
    out_str(o, key);
    out_char(o, '=');
    if (v < 0)
        out_char(o, '-');
    else
        out_int(o, v);
}

static void put_list(text_out *o, const char *key, const uint8_t *items, int n)
{
    out_char(o, ' ');
    out_str(o, key);
    out_char(o, '=');
    for (int i = 0; i < n; i++) {
        if (i)
            out_char(o, ',');
        if (items[i] == RTW_NONE)
            out_char(o, '-');
        else
            out_int(o, items[i]);
    }
}

static int rtw_state_to_text(const void *st, char *buf, size_t size)
{
    const rtw_state *s = st;
    text_out o = {buf, size, 0, size == 0};
    out_str(&o, "rtw1");
    put_field(&o, "players", s->players);
    put_field(&o, "neutrals", s->neutrals);
    out_str(&o, s->variant ? " variant=vogel warriors=" : " variant=standard warriors=");
    for (int k = 0; k < RTW_KINDS; k++) {
        if (k)
            out_char(&o, ',');
        out_int(&o, s->cards.strength[k]);
    }
    out_str(&o, " forts=");
    for (int f = 0; f < RTW_FORTS; f++) {
        if (f)
            out_char(&o, ',');
        out_char(&o, fort_letter[s->cards.fort_kind[f]]);
        out_int(&o, s->cards.fort_value[f]);
    }
    out_str(&o, " rng=");
    out_hex64(&o, s->rng.state);
    out_char(&o, ',');
    out_hex64(&o, s->rng.inc);
    put_field(&o, "round", s->round + 1);
    put_field(&o, "turn", s->turn + 1);
    out_str(&o, " phase=");
    out_str(&o, phase_word[s->phase]);
    put_field(&o, "actor", s->actor);
    put_field(&o, "next", s->next_slot + 1);
    put_field(&o, "capturer", s->capturer);
    put_field(&o, "captured", s->captured == RTW_NONE ? -1 : s->captured);
    out_str(&o, " keep=");
    put_letters(&o, s->keep);
    put_field(&o, "winner", s->winner);
    put_list(&o, "deck", s->deck, RTW_FORTS);
    put_list(&o, "wall", s->wall, RTW_SLOTS);
    out_str(&o, " gone=");
    put_ids(&o, s->gone);
    for (int c = 0; c < s->clans; c++) {
        out_char(&o, ' ');
        out_str(&o, clan_word[c]);
        out_char(&o, '=');
        for (int i = 0; i < RTW_SLOTS; i++)
            out_char(&o, s->slot[c][i] == RTW_NONE ? '-' : warrior_letter[s->slot[c][i]]);
        out_char(&o, '/');
        put_letters(&o, s->hand[c]);
        out_char(&o, '/');
        put_letters(&o, s->drawn[c]);
        out_char(&o, '/');
        put_letters(&o, s->up[c]);
        out_char(&o, '/');
        put_ids(&o, s->forts[c]);
    }
    return o.full ? RP_ENOSPACE : (int)o.len;
}

/* Split `text` (modified) at `sep` into at most max parts; the count, or -1 when there are
 * more or a part is empty. */
static int split(char *text, char sep, char **parts, int max)
{
    int n = 0;
    for (char *p = text;;) {
        if (n == max)
            return -1;
        parts[n++] = p;
        char *q = strchr(p, sep);
        if (!q)
            break;
        *q = '\0';
        p = q + 1;
    }
    for (int i = 0; i < n; i++)
        if (!*parts[i])
            return -1;
    return n;
}

/* "-" as -1, else an integer within [lo, hi]. */
static bool parse_opt(const char *v, long lo, long hi, long *out)
{
    if (strcmp(v, "-") == 0) {
        *out = -1;
        return true;
    }
    return parse_int_range(v, lo, hi, out);
}

static bool parse_letters(const char *v, uint16_t *out)
{
    *out = 0;
    if (strcmp(v, "-") == 0)
        return true;
    for (; *v; v++) {
        const char *k = strchr(warrior_letter, *v);
        if (!k || (*out & BIT(k - warrior_letter)))
            return false;
        *out |= BIT(k - warrior_letter);
    }
    return *out != 0;
}

static bool parse_ids(char *v, uint32_t *out)
{
    *out = 0;
    if (strcmp(v, "-") == 0)
        return true;
    char *parts[RTW_FORTS];
    int n = split(v, ',', parts, RTW_FORTS);
    if (n < 0)
        return false;
    for (int i = 0; i < n; i++) {
        long f;
        if (!parse_int_range(parts[i], 0, RTW_FORTS - 1, &f) || (*out & (1u << f)))
            return false;
        *out |= 1u << f;
    }
    return true;
}

static bool parse_hex64(const char *v, uint64_t *out)
{
    if (strlen(v) != 16)
        return false;
    uint64_t x = 0;
    for (; *v; v++) {
        const char *d = strchr("0123456789abcdef", *v);
        if (!d || !*v)
            return false;
        x = x << 4 | (uint64_t)(d - "0123456789abcdef");
    }
    *out = x;
    return true;
}

static int parse_clan(rtw_state *s, int c, char *v, rp_error *err)
{
    char *parts[5];
    if (split(v, '/', parts, 5) != 5)
        return rp_fail(err, RP_EPARSE, "%s: expected SLOTS/HAND/DRAWN/UP/FORTS", clan_word[c]);
    if (strlen(parts[0]) != RTW_SLOTS)
        return rp_fail(err, RP_EPARSE, "%s: expected six slot letters", clan_word[c]);
    for (int i = 0; i < RTW_SLOTS; i++) {
        const char *k = strchr(warrior_letter, parts[0][i]);
        if (parts[0][i] == '-')
            s->slot[c][i] = RTW_NONE;
        else if (k && *k)
            s->slot[c][i] = (uint8_t)(k - warrior_letter);
        else
            return rp_fail(err, RP_EPARSE, "%s: slot %d: unknown warrior '%c'", clan_word[c],
                           i + 1, parts[0][i]);
    }
    if (!parse_letters(parts[1], &s->hand[c]) || !parse_letters(parts[2], &s->drawn[c]) ||
        !parse_letters(parts[3], &s->up[c]))
        return rp_fail(err, RP_EPARSE, "%s: bad warrior letters (fqdzahxcl, each once, or -)",
                       clan_word[c]);
    if (!parse_ids(parts[4], &s->forts[c]))
        return rp_fail(err, RP_EPARSE, "%s: bad fort list", clan_word[c]);
    return RP_OK;
}

static int parse_cards_fields(rtw_state *s, char *warriors, char *forts, rp_error *err)
{
    char *parts[RTW_FORTS];
    if (split(warriors, ',', parts, RTW_KINDS) != RTW_KINDS)
        return rp_fail(err, RP_EPARSE, "warriors: expected 9 strengths");
    for (int k = 0; k < RTW_KINDS; k++) {
        long v;
        if (!parse_int_range(parts[k], 0, 30, &v))
            return rp_fail(err, RP_EPARSE, "warriors: strength '%s' not in 0..30", parts[k]);
        s->cards.strength[k] = (int8_t)v;
    }
    if (split(forts, ',', parts, RTW_FORTS) != RTW_FORTS)
        return rp_fail(err, RP_EPARSE, "forts: expected 18 forts");
    for (int f = 0; f < RTW_FORTS; f++) {
        const char *k = strchr(fort_letter, parts[f][0]);
        long v;
        if (!parts[f][0] || !k || !parse_int_range(parts[f] + 1, -30, 30, &v))
            return rp_fail(err, RP_EPARSE, "forts: '%s' is not a kind letter (ustld) and a "
                           "value", parts[f]);
        s->cards.fort_kind[f] = (uint8_t)(k - fort_letter);
        s->cards.fort_value[f] = (int8_t)v;
    }
    return RP_OK;
}

static const char *const state_keys[] = {
    "players", "neutrals", "variant", "warriors", "forts", "rng", "round", "turn", "phase",
    "actor", "next", "capturer", "captured", "keep", "winner", "deck", "wall", "gone"};
#define NUM_KEYS ((int)(sizeof state_keys / sizeof *state_keys))

/* The fixed fields, in order, into s (clans follow). */
static int parse_fields(rtw_state *s, char **val, rp_error *err)
{
    long v[NUM_KEYS];
    static const int small[][3] = {{0, 1, 4}, {1, 0, 2}, {6, 1, 3}, {7, 1, 6}, {9, 0, 3},
                                   {10, 1, 6}};
    for (size_t i = 0; i < sizeof small / sizeof *small; i++)
        if (!parse_int_range(val[small[i][0]], small[i][1], small[i][2], &v[small[i][0]]))
            return rp_fail(err, RP_EPARSE, "%s: '%s' not in %d..%d", state_keys[small[i][0]],
                           val[small[i][0]], small[i][1], small[i][2]);
    s->players = (uint8_t)v[0];
    s->neutrals = (uint8_t)v[1];
    s->clans = (uint8_t)(v[0] + v[1]);
    if (strcmp(val[2], "standard") != 0 && strcmp(val[2], "vogel") != 0)
        return rp_fail(err, RP_EPARSE, "variant: standard or vogel");
    s->variant = val[2][0] == 'v';
    int rc = parse_cards_fields(s, val[3], val[4], err);
    if (rc < 0)
        return rc;
    char *rng[2];
    if (split(val[5], ',', rng, 2) != 2 || !parse_hex64(rng[0], &s->rng.state) ||
        !parse_hex64(rng[1], &s->rng.inc))
        return rp_fail(err, RP_EPARSE, "rng: expected two 16-digit lower-case hex numbers");
    s->round = (uint8_t)(v[6] - 1);
    s->turn = (uint8_t)(v[7] - 1);
    int ph = word_index(phase_word, RTW_PHASES, val[8]);
    if (ph < 0)
        return rp_fail(err, RP_EPARSE, "phase: unknown '%s'", val[8]);
    s->phase = (uint8_t)ph;
    s->actor = (uint8_t)v[9];
    s->next_slot = (uint8_t)(v[10] - 1);
    long cap, fort, win;
    if (!parse_opt(val[11], 0, 3, &cap) || !parse_opt(val[12], 0, RTW_FORTS - 1, &fort) ||
        !parse_opt(val[14], 0, 3, &win))
        return rp_fail(err, RP_EPARSE, "capturer, captured or winner: a number or -");
    s->capturer = (int8_t)cap;
    s->captured = fort < 0 ? RTW_NONE : (uint8_t)fort;
    s->winner = (int8_t)win;
    if (!parse_letters(val[13], &s->keep))
        return rp_fail(err, RP_EPARSE, "keep: warrior letters or -");
    char *parts[RTW_FORTS];
    if (split(val[15], ',', parts, RTW_FORTS) != RTW_FORTS)
        return rp_fail(err, RP_EPARSE, "deck: expected 18 fort ids");
    for (int i = 0; i < RTW_FORTS; i++) {
        long f;
        if (!parse_int_range(parts[i], 0, RTW_FORTS - 1, &f))
            return rp_fail(err, RP_EPARSE, "deck: '%s' is not a fort id 0..17", parts[i]);
        s->deck[i] = (uint8_t)f;
    }
    if (split(val[16], ',', parts, RTW_SLOTS) != RTW_SLOTS)
        return rp_fail(err, RP_EPARSE, "wall: expected 6 positions");
    for (int i = 0; i < RTW_SLOTS; i++) {
        long f;
        if (!parse_opt(parts[i], 0, RTW_FORTS - 1, &f))
            return rp_fail(err, RP_EPARSE, "wall: '%s' is not a fort id or -", parts[i]);
        s->wall[i] = f < 0 ? RTW_NONE : (uint8_t)f;
    }
    if (!parse_ids(val[17], &s->gone))
        return rp_fail(err, RP_EPARSE, "gone: a list of fort ids or -");
    return RP_OK;
}

static int rtw_state_from_text(void *st, const char *text, rp_error *err)
{
    char copy[RP_STATE_TEXT];
    if (strlen(text) >= sizeof copy)
        return rp_fail(err, RP_EPARSE, "state text too long");
    snprintf(copy, sizeof copy, "%s", text);
    char *tok[1 + NUM_KEYS + RTW_MAX_CLANS + 1];
    int n = split(copy, ' ', tok, (int)(sizeof tok / sizeof *tok));
    if (n < 0)
        return rp_fail(err, RP_EPARSE, "state text: too many fields, or an empty one (fields "
                       "are separated by single spaces)");
    if ( strcmp(tok[0], "rtw1") != 0)
        return rp_fail(err, RP_EPARSE, "not a Rush the Wall state (expected 'rtw1 players=...', "
                       "single spaces)");
    if (n < 1 + NUM_KEYS)
        return rp_fail(err, RP_EPARSE, "state text: fields missing after '%s'", tok[n - 1]);
    char *val[NUM_KEYS + RTW_MAX_CLANS];
    for (int i = 0; i < n - 1; i++) {
        const char *key = i < NUM_KEYS ? state_keys[i] : clan_word[(i - NUM_KEYS) % 4];
        size_t len = strlen(key);
        if (i >= NUM_KEYS + RTW_MAX_CLANS || strncmp(tok[i + 1], key, len) != 0 ||
            tok[i + 1][len] != '=')
            return rp_fail(err, RP_EPARSE, "field %d: expected %s=...", i + 1, key);
        val[i] = tok[i + 1] + len + 1;
    }
    rtw_state s;
    memset(&s, 0, sizeof s);
    int rc = parse_fields(&s, val, err);
    if (rc < 0)
        return rc;
    if (n - 1 - NUM_KEYS != s.clans)
        return rp_fail(err, RP_EPARSE, "clans: %d given, players+neutrals is %d",
                       n - 1 - NUM_KEYS, s.clans);
    for (int c = 0; c < s.clans; c++)
        if ((rc = parse_clan(&s, c, val[NUM_KEYS + c], err)) < 0)
            return rc;
    if ((rc = rtw_check(&s, err)) < 0)
        return rc;
    memcpy(st, &s, sizeof s);
    return RP_OK;
}

/* ---- views ---- */

static int shown_slots(const rtw_state *s)
{
    return s->phase == RTW_PLAN ? 0 : s->turn + 1;
}

/* View fields: keys are literals and many values static words, so they are added by
 * reference (no copies): views are built at every step of searches and tests. */
static void put_static(cJSON *o, const char *key, const char *word)
{
    cJSON_AddItemToObjectCS(o, key, cJSON_CreateStringReference(word));
}

static void put_text(cJSON *o, const char *key, const char *text)
{
    cJSON_AddItemToObjectCS(o, key, cJSON_CreateString(text));
}

static void put_number(cJSON *o, const char *key, double value)
{
    cJSON_AddItemToObjectCS(o, key, cJSON_CreateNumber(value));
}

static void put_bool(cJSON *o, const char *key, bool value)
{
    cJSON_AddItemToObjectCS(o, key, cJSON_CreateBool(value));
}

static void put_null(cJSON *o, const char *key)
{
    cJSON_AddItemToObjectCS(o, key, cJSON_CreateNull());
}

/* Lists in views are strings of space-separated words ("archr qween"): the same words as
 * the notation, and few JSON nodes, so views stay cheap (search and tests print many). */
typedef struct words {
    char text[160];
    size_t len;
} words;

static void add_word(words *w, const char *word)
{
    size_t n = strlen(word), sep = w->len ? 1 : 0;
    if (w->len + sep + n >= sizeof w->text)
        return;
    if (sep)
        w->text[w->len++] = ' ';
    memcpy(w->text + w->len, word, n + 1);
    w->len += n;
}

static void add_warriors(cJSON *o, const char *key, uint32_t mask)
{
    words w = {{0}, 0};
    for (; mask; mask &= mask - 1)
        add_word(&w, warrior_word[lowest_bit(mask)]);
    put_text(o, key, w.text);
}

static void add_forts(cJSON *o, const char *key, const rtw_cards *c, uint32_t mask)
{
    words w = {{0}, 0};
    char label[32];
    for (; mask; mask &= mask - 1) {
        fort_label(c, lowest_bit(mask), label, sizeof label);
        add_word(&w, label);
    }
    put_text(o, key, w.text);
}

/* The card values in use, flagged as assumptions (RW-2, RW-3), as two short strings
 * ("filchy 1, qween 2, ..." and "unwary2, signal4, ...") to keep views cheap to print. */
static cJSON *cards_json(const rtw_cards *c)
{
    cJSON *cards = cJSON_CreateObject();
    put_bool(cards, "assumed", true);
    char buf[512];
    text_out o = {buf, sizeof buf, 0, false};
    for (int k = 0; k < RTW_KINDS; k++) {
        out_str(&o, k ? ", " : "");
        out_str(&o, warrior_word[k]);
        out_char(&o, ' ');
        out_int(&o, c->strength[k]);
    }
    put_text(cards, "warriors", buf);
    o.len = 0;
    for (int f = 0; f < RTW_FORTS; f++) {
        char label[32];
        fort_label(c, f, label, sizeof label);
        out_str(&o, f ? ", " : "");
        out_str(&o, label);
    }
    put_text(cards, "forts", buf);
    return cards;
}

/* One clan as `player` sees it: its own hidden cards only when it is that clan. Slots read
 * left to right: a warrior, "?" for a hidden one, "-" for an empty slot. */
static cJSON *clan_json(const rtw_state *s, int c, int player)
{
    cJSON *o = cJSON_CreateObject();
    put_static(o, "clan", clan_word[c]);
    put_bool(o, "neutral", !is_player(s, c));
    add_forts(o, "forts", &s->cards, s->forts[c]);
    put_number(o, "points", fort_total(s, c));
    add_warriors(o, "face_up", s->up[c]);
    bool own = c == player;
    int shown = shown_slots(s);
    words w = {{0}, 0};
    for (int i = 0; i < RTW_SLOTS; i++) {
        int k = s->slot[c][i];
        add_word(&w, k == RTW_NONE ? "-" : own || i < shown ? warrior_word[k] : "?");
    }
    put_text(o, "slots", w.text);
    if (own) {
        add_warriors(o, "hand", s->hand[c]);
        add_warriors(o, "drawn", s->drawn[c]);
    } else {
        put_number(o, "hand_size", popcount(s->hand[c]));
    }
    return o;
}

static cJSON *rtw_view_json(const void *st, int player)
{
    const rtw_state *s = st;
    cJSON *v = cJSON_CreateObject();
    put_static(v, "game", "rush-the-wall");
    put_number(v, "player", player);
    put_static(v, "clan", player >= 0 && player < s->clans ? clan_word[player] : "");
    put_static(v, "variant", s->variant ? "vogel" : "standard");
    put_number(v, "round", s->round + 1);
    put_number(v, "turn", s->turn + 1);
    put_static(v, "phase", phase_word[s->phase]);
    if (s->phase == RTW_OVER)
        put_null(v, "to_act");
    else
        put_number(v, "to_act", s->actor);
    cJSON_AddItemToObjectCS(v, "cards", cards_json(&s->cards));
    words w = {{0}, 0};
    char label[32];
    for (int i = 0; i < RTW_SLOTS; i++) {
        if (s->wall[i] != RTW_NONE)
            fort_label(&s->cards, s->wall[i], label, sizeof label);
        add_word(&w, s->wall[i] == RTW_NONE ? "-" : label);
    }
    put_text(v, "wall", w.text);
    add_forts(v, "discarded_forts", &s->cards, s->gone);
    if (s->capturer >= 0)
        put_static(v, "capturer", clan_word[s->capturer]);
    else
        put_null(v, "capturer");
    if (s->captured != RTW_NONE)
        add_forts(v, "captured", &s->cards, 1u << s->captured);
    else
        put_null(v, "captured");
    add_warriors(v, "kept", s->keep);
    cJSON *clans = cJSON_CreateArray();
    cJSON_AddItemToObjectCS(v, "clans", clans);
    for (int c = 0; c < s->clans; c++)
        cJSON_AddItemToArray(clans, clan_json(s, c, player));
    put_bool(v, "over", s->phase == RTW_OVER);
    if (s->phase == RTW_OVER) {
        words win = {{0}, 0};
        uint32_t mask = winners(s);
        for (int c = 0; c < s->players; c++)
            if (mask & (1u << c))
                add_word(&win, clan_word[c]);
        put_text(v, "winners", win.text);
        put_bool(v, "legion_win", s->winner >= 0);
    }
    return v;
}

/* Resample one other clan's unseen warriors: its hidden slots, its hand, and which of the
 * rest it drew, from the kinds `player` has not seen revealed. */
static void determinize_clan(rtw_state *s, int c, rp_rng *rng)
{
    int shown = shown_slots(s);
    uint16_t known = 0;
    for (int i = 0; i < shown; i++)
        known |= BIT(s->slot[c][i]);
    uint8_t pool[RTW_KINDS];
    int n = 0;
    for (int k = 0; k < RTW_KINDS; k++)
        if (!(known & BIT(k)))
            pool[n++] = (uint8_t)k;
    rp_rng_shuffle_u8(rng, pool, n);
    int next = 0;
    uint16_t drawn = known;
    for (int i = shown; i < RTW_SLOTS; i++)
        if (s->slot[c][i] != RTW_NONE) {
            s->slot[c][i] = pool[next++];
            drawn |= BIT(s->slot[c][i]);
        }
    int hand_size = popcount(s->hand[c]);
    s->hand[c] = 0;
    for (int i = 0; i < hand_size; i++)
        s->hand[c] |= BIT(pool[next++]);
    drawn |= s->hand[c];
    int want = is_player(s, c) ? RTW_DRAW : RTW_SLOTS;
    while (popcount(drawn) < want)
        drawn |= BIT(pool[next++]);
    s->drawn[c] = drawn;
}

static void rtw_determinize(void *st, int player, rp_rng *rng)
{
    rtw_state *s = st;
    for (int c = 0; c < s->clans; c++)
        if (c != player)
            determinize_clan(s, c, rng);
    /* The undrawn forts are known as a set, not in order: sort them before shuffling so the
     * result never depends on the hidden order it replaces. */
    int drawn = RTW_SLOTS * (s->round + 1);
    uint8_t *undrawn = s->deck + drawn;
    for (int i = 1; i < RTW_FORTS - drawn; i++)
        for (int j = i; j > 0 && undrawn[j - 1] > undrawn[j]; j--) {
            uint8_t t = undrawn[j];
            undrawn[j] = undrawn[j - 1];
            undrawn[j - 1] = t;
        }
    rp_rng_shuffle_u8(rng, undrawn, RTW_FORTS - drawn);
    uint64_t seed = (uint64_t)rp_rng_next(rng) << 32 | rp_rng_next(rng);
    rp_rng_seed(&s->rng, seed, rp_rng_next(rng));
}

/* Other clans see that a placement was made, not which warrior (RW-5). */
static rp_action rtw_observe_action(const void *st, rp_action action, int observer)
{
    const rtw_state *s = st;
    bool placing = s->phase == RTW_PLAN || s->phase == RTW_ZVORD_PLACE;
    return placing && observer != s->actor ? RTW_A_HIDDEN : action;
}

/* A cheap estimate for `player` from public facts: fort points against the best rival clan
 * (neutrals count as rivals only in a solo game), a nudge for face-up strength, and the
 * three-Legion threat. */
static double rtw_evaluate(const void *st, int player)
{
    const rtw_state *s = st;
    if (s->phase == RTW_OVER) {
        double r[RP_MAX_PLAYERS];
        rtw_returns(s, r);
        return r[player];
    }
    int rivals_end = s->players == 1 ? s->clans : s->players;
    int best = -1000, best_up = 0, best_legions = 0;
    for (int c = 0; c < rivals_end; c++) {
        if (c == player)
            continue;
        int t = fort_total(s, c);
        if (t > best) {
            best = t;
            best_up = strength_of(s, s->up[c]);
        }
        if (is_player(s, c) && legions(s, c) > best_legions)
            best_legions = legions(s, c);
    }
    double diff = fort_total(s, player) - best;
    diff += 0.1 * (strength_of(s, s->up[player]) - best_up);
    double v = 0.5 + diff / 40.0;
    if (legions(s, player) == RTW_LEGION_WIN - 1)
        v += 0.1;
    if (best_legions == RTW_LEGION_WIN - 1)
        v -= 0.1;
    return v < 0.02 ? 0.02 : v > 0.98 ? 0.98 : v;
}

/* ---- terminal rendering ---- */

static const char *const clan_color[RTW_MAX_CLANS] = {"\033[32m", "\033[31m", "\033[33m",
                                                      "\033[34m"};

static void fort_text(const rtw_state *s, int f, char *buf, size_t size)
{
    snprintf(buf, size, "%s %d", fort_name[s->cards.fort_kind[f]], s->cards.fort_value[f]);
}

static void render_forts(const rtw_state *s, uint32_t mask, FILE *out)
{
    char buf[48];
    if (!mask)
        fputs("none", out);
    for (uint32_t m = mask, first = 1; m; m &= m - 1, first = 0) {
        fort_text(s, lowest_bit(m), buf, sizeof buf);
        fprintf(out, "%s%s", first ? "" : ", ", buf);
    }
}

static void render_warriors(const rtw_state *s, uint32_t mask, FILE *out)
{
    if (!mask)
        fputs("none", out);
    for (uint32_t m = mask, first = 1; m; m &= m - 1, first = 0) {
        int k = lowest_bit(m);
        fprintf(out, "%s%s %d", first ? "" : ", ", warrior_name[k], s->cards.strength[k]);
    }
}

/* What the clan to act must decide, in words. */
static void render_prompt(const rtw_state *s, int player, FILE *out)
{
    static const char *const what[RTW_PHASES] = {
        "place a warrior face down (the seventh is set aside)",
        "re-place the hidden warriors (Zvord)",
        "pick the rival warrior the Qween charms",
        "pick the fort the Dru'hid takes",
        "discard a face-up warrior (Signal Fort)",
        "pay one of the forts held (Tax-Collector's Fort)",
        "keep the Axx face up, or drop it",
        "discard a face-up warrior (Horsie)", ""};
    if (s->phase == RTW_OVER) {
        uint32_t w = winners(s);
        fputs("Game over: ", out);
        for (int c = 0, first = 1; c < s->players; c++)
            if (w & (1u << c)) {
                fprintf(out, "%s%s", first ? "" : " and ", clan_name[c]);
                first = 0;
            }
        fprintf(out, " %s%s.\n", popcount(w) > 1 ? "share the win" : "wins",
                s->winner >= 0 ? " with three Legion forts" : "");
        return;
    }
    fprintf(out, "%s to act: %s", s->actor == player ? "You are" : clan_name[s->actor],
            what[s->phase]);
    if (s->phase == RTW_PLAN || s->phase == RTW_ZVORD_PLACE)
        fprintf(out, " in slot %d", s->next_slot + 1);
    fputs(".\n", out);
}

/* The card values in use (defaults or a cards=FILE), for `ramparts rules rush-the-wall`:
 * the rulebook gives only Arch'r's strength, so every number here is an assumption (RW-2,
 * RW-3) that a user may replace. */
static void rtw_describe(const void *st, FILE *out)
{
    const rtw_state *s = st;
    char buf[48];
    fputs("Card values in use (assumptions: the rulebook gives only Arch'r 5; RW-2, RW-3):\n"
          "  Warriors: ", out);
    render_warriors(s, ALL_WARRIORS, out);
    fputs("\n  Forts:", out);
    for (int f = 0; f < RTW_FORTS; f++) {
        fort_text(s, f, buf, sizeof buf);
        fprintf(out, "%s %s", f ? "," : "", buf);
    }
    fputc('\n', out);
}

static void rtw_render(const void *st, int player, FILE *out, bool color)
{
    const rtw_state *s = st;
    const char *bold = color ? "\033[1m" : "", *reset = color ? "\033[0m" : "";
    char buf[48];
    fprintf(out, "%sRush the Wall%s  round %d/3, turn %d/6%s", bold, reset, s->round + 1,
            s->turn + 1, s->variant ? "  (Vogel variant)" : "");
    if (player >= 0 && player < s->players)
        fprintf(out, "  you are %s%s%s", color ? clan_color[player] : "", clan_name[player],
                reset);
    fputs("\nCard values (assumptions, RW-2/RW-3): ", out);
    render_warriors(s, ALL_WARRIORS, out);
    fputs("\nThe Wall:", out);
    for (int i = 0; i < RTW_SLOTS; i++) {
        if (s->wall[i] == RTW_NONE) {
            fprintf(out, "  %d:--", i + 1);
            continue;
        }
        fort_text(s, s->wall[i], buf, sizeof buf);
        bool current = i == s->turn && s->phase != RTW_PLAN;
        fprintf(out, "  %d:%s%s%s", i + 1, current ? "[" : "", buf, current ? "]" : "");
    }
    fprintf(out, "\nForts left to draw: %d; discarded: ", RTW_FORTS - RTW_SLOTS * (s->round + 1));
    render_forts(s, s->gone, out);
    fputc('\n', out);
    int shown = shown_slots(s);
    for (int c = 0; c < s->clans; c++) {
        fprintf(out, "%s%-6s%s%s  forts: ", color ? clan_color[c] : "", clan_name[c], reset,
                !is_player(s, c) ? " (neutral)" : c == player ? " (you)    " : "          ");
        render_forts(s, s->forts[c], out);
        fprintf(out, " = %d points\n        face up: ", fort_total(s, c));
        render_warriors(s, s->up[c], out);
        fputs("\n        slots:", out);
        for (int i = 0; i < RTW_SLOTS; i++) {
            int k = s->slot[c][i];
            if (k == RTW_NONE)
                fputs("  .", out);
            else if (i < shown)
                fprintf(out, "  [%s]", warrior_name[k]);
            else
                fprintf(out, "  %s", c == player ? warrior_name[k] : "?");
        }
        if (c == player && s->hand[c]) {
            fputs("\n        in hand: ", out);
            render_warriors(s, s->hand[c], out);
        }
        fputc('\n', out);
    }
    if (s->capturer >= 0 && s->captured != RTW_NONE && s->phase != RTW_PLAN) {
        fort_text(s, s->captured, buf, sizeof buf);
        fprintf(out, "This turn %s captured %s.\n", clan_name[s->capturer], buf);
    }
    render_prompt(s, player, out);
}

/* ---- the game ---- */

const rp_game rp_rush_the_wall = {
    .id = "rush-the-wall",
    .title = "Rush the Wall",
    .summary = "Caledonian clans rush Hadrian's Wall: hidden planning, six reveals a round "
               "(1-4 clans, neutral clans, Vogel variant)",
    .min_players = 1,
    .max_players = 4,
    .default_players = 2,
    .flags = RP_CHANCE | RP_HIDDEN_INFO,
    .num_actions = RTW_NUM_ACTIONS,
    .state_size = sizeof(rtw_state),
    .options = rtw_options,
    .num_options = (int)(sizeof rtw_options / sizeof *rtw_options),
    .seat_names = clan_name, /* player seat i is clan colour i (RW-1) */
    .describe = rtw_describe,
    /* Planned face down: the evaluation sees only public fort totals, flat while warriors
     * are placed, so the levels play out to the end of the game (docs/ai.md). */
    .ai_levels = {"iters=300,rollout=-1", "iters=1500,rollout=-1", "iters=4000,rollout=-1"},
    .init = rtw_init,
    .num_players = rtw_num_players,
    .current_player = rtw_current_player,
    .legal_actions = rtw_legal_actions,
    .apply = rtw_apply,
    .returns = rtw_returns,
    .action_to_text = rtw_action_to_text,
    .action_from_text = rtw_action_from_text,
    .state_to_text = rtw_state_to_text,
    .state_from_text = rtw_state_from_text,
    .view_json = rtw_view_json,
    .determinize = rtw_determinize,
    .render = rtw_render,
    .evaluate = rtw_evaluate,
    .observe_action = rtw_observe_action,
};
