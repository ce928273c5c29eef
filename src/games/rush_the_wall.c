/* rush_the_wall.c — Rush the Wall: 1-4 Caledonian clans (plus 0-2 neutral clans) rush six
 * forts of Hadrian's Wall a round, three rounds. Hidden planning, then one reveal per fort with
 * warrior and fort effects, resolved in the order of ruling RW-6, every step narrated to each
 * viewer as events. Rules: docs/rules/rush-the-wall.md; notes: docs/games/rush-the-wall.md. */
#include <cjson/cJSON.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/check.h"
#include "core/events.h"
#include "core/notation.h"
#include "games/rush_the_wall.h"

/* ---- names ---- */

static const char *const warrior_word[RTW_KINDS] = {"filchy", "qween", "druhid",   "zvord", "archr",
                                                    "horsie", "axx",   "chariott", "laird"};
static const char *const warrior_name[RTW_KINDS] = {
    "Filchy", "Qween", "Dru'hid", "Zvord", "Arch'r", "Horsie", "Axx", "Ch'ariott", "Laird"};
static const char *const fort_word[RTW_FORT_KINDS] = {"unwary", "signal", "tax", "legion",
                                                      "dinary"};
static const char *const fort_name[RTW_FORT_KINDS] = {"Unwary", "Signal", "Tax-Collector's",
                                                      "Legion", "Fort-Dinary"};
static const char fort_letter[RTW_FORT_KINDS + 1] = "ustld";
static const char *const clan_word[RTW_MAX_CLANS] = {"green", "red", "gold", "blue"};
static const char *const clan_name[RTW_MAX_CLANS] = {"Green", "Red", "Gold", "Blue"};
static const char *const phase_word[RTW_PHASES] = {"plan", "zvord", "qween",  "druhid", "signal",
                                                   "tax",  "axx",   "horsie", "over"};

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

/* Slots turned up so far this round: none while planning. */
static int shown_slots(const rtw_state *s)
{
    return s->phase == RTW_PLAN ? 0 : s->turn + 1;
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

static int highest_fort(const rtw_state *s, int clan)
{
    int best = -1000;
    for (uint32_t m = s->forts[clan]; m; m &= m - 1)
        if (s->cards.fort_value[lowest_bit(m)] > best)
            best = s->cards.fort_value[lowest_bit(m)];
    return best;
}

/* Two forts are the same card for the player when kind and value agree. */
static bool same_fort(const rtw_cards *c, int a, int b)
{
    return c->fort_kind[a] == c->fort_kind[b] && c->fort_value[a] == c->fort_value[b];
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
            dup = same_fort(&s->cards, f, lowest_bit(o));
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

/* ---- card sets: the card file, the one-word option value, the defaults ---- */

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

/* The canonical order of a card set's forts: by kind (unwary, signal, tax, legion, dinary),
 * then nearest zero first, so a card set has one spelling and its forts one numbering. */
static bool fort_before(const rtw_cards *c, int a, int b)
{
    if (c->fort_kind[a] != c->fort_kind[b])
        return c->fort_kind[a] < c->fort_kind[b];
    return abs(c->fort_value[a]) < abs(c->fort_value[b]);
}

static void sort_forts(rtw_cards *c)
{
    for (int i = 1; i < RTW_FORTS; i++)
        for (int j = i; j > 0 && fort_before(c, j, j - 1); j--) {
            uint8_t kind = c->fort_kind[j];
            int8_t value = c->fort_value[j];
            c->fort_kind[j] = c->fort_kind[j - 1];
            c->fort_value[j] = c->fort_value[j - 1];
            c->fort_kind[j - 1] = kind;
            c->fort_value[j - 1] = value;
        }
}

/* The checks every card set passes, wherever it comes from; `what` prefixes the message. */
static int check_cards(const rtw_cards *c, const char *what, rp_error *err)
{
    for (int k = 0; k < RTW_KINDS; k++) {
        if (c->strength[k] < 0 || c->strength[k] > 30)
            return rp_fail(err, RP_EINVAL, "%s: warrior %s: strength %d is not in 0..30", what,
                           warrior_word[k], c->strength[k]);
        for (int j = 0; j < k; j++)
            if (c->strength[j] == c->strength[k])
                return rp_fail(err, RP_EINVAL,
                               "%s: warriors '%s' and '%s' have the same "
                               "strength %d; they must differ so that the weakest warrior is "
                               "one (RW-16, RTW-P4)",
                               what, warrior_word[j], warrior_word[k], c->strength[k]);
    }
    for (int f = 0; f < RTW_FORTS; f++) {
        int v = c->fort_value[f];
        if (c->fort_kind[f] >= RTW_FORT_KINDS)
            return rp_fail(err, RP_EINVAL, "%s: fort %d: unknown kind", what, f + 1);
        bool legion = c->fort_kind[f] == RTW_LEGION;
        if (legion ? (v < -30 || v > -1) : (v < 1 || v > 30))
            return rp_fail(err, RP_EINVAL, "%s: fort %d: value %d is not in %s", what, f + 1, v,
                           legion ? "-30..-1 (a Legion subtracts)" : "1..30");
        if (f > 0 && fort_before(c, f, f - 1))
            return rp_fail(err, RP_EINVAL,
                           "%s: forts are listed by kind (u s t l d), each kind "
                           "nearest zero first; fort %d is out of order",
                           what, f + 1);
    }
    return RP_OK;
}

/* One line of a card file: "warrior NAME STRENGTH" or "fort KIND VALUE". */
static int parse_card_line(char *line, const char *source, int lineno, rtw_cards *c, uint16_t *seen,
                           int *nforts, rp_error *err)
{
    char *words[3];
    int n = split_words(line, words, 3);
    if (n > 3)
        return rp_fail(err, RP_EPARSE, "%s line %d: too many words (expected 3)", source, lineno);
    if (n == 0)
        return RP_OK;
    if (n != 3)
        return rp_fail(err, RP_EPARSE,
                       "%s line %d: expected 'warrior NAME STRENGTH' or 'fort KIND VALUE'", source,
                       lineno);
    long v;
    if (strcmp(words[0], "warrior") == 0) {
        int k = word_index(warrior_word, RTW_KINDS, words[1]);
        if (k < 0)
            return rp_fail(err, RP_EPARSE, "%s line %d: unknown warrior '%s'", source, lineno,
                           words[1]);
        if (*seen & BIT(k))
            return rp_fail(err, RP_EPARSE, "%s line %d: warrior '%s' given twice", source, lineno,
                           words[1]);
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
            return rp_fail(err, RP_EPARSE, "%s line %d: unknown fort kind '%s'", source, lineno,
                           words[1]);
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
    return rp_fail(err, RP_EPARSE, "%s line %d: unknown card type '%s' (warrior or fort)", source,
                   lineno, words[0]);
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
        return rp_fail(err, RP_EPARSE, "%s: warrior '%s' is missing (all nine are needed)", source,
                       warrior_word[k]);
    }
    if (nforts != RTW_FORTS)
        return rp_fail(err, RP_EPARSE, "%s: %d forts, expected exactly %d", source, nforts,
                       RTW_FORTS);
    sort_forts(&c);
    int rc = check_cards(&c, source, err);
    if (rc < 0)
        return RP_EPARSE;
    *out = c;
    return RP_OK;
}

static rtw_cards default_cards;
static pthread_once_t default_once = PTHREAD_ONCE_INIT;

/* Parsed once: the embedded file is part of the build, so a failure is a build error. */
static void parse_default_cards(void)
{
    rp_error err;
    if (rtw_cards_parse(rp_rush_the_wall_cards_text, "data/rush-the-wall.cards", &default_cards,
                        &err) < 0)
        rp__panic(__FILE__, __LINE__, "rush-the-wall: embedded card data is broken: %s", err.msg);
}

const rtw_cards *rtw_default_cards(void)
{
    pthread_once(&default_once, parse_default_cards);
    return &default_cards;
}

static bool cards_are_default(const rtw_cards *c)
{
    return memcmp(c, rtw_default_cards(), sizeof *c) == 0;
}

/* The option value of a card set: "default", or "S1,..,S9/F1,..,F18" with the strengths in
 * warrior order (filchy .. laird) and each fort as its kind letter and value ("l-2"). */
static void put_cards_value(rp_text *t, const rtw_cards *c)
{
    if (cards_are_default(c)) {
        rp__text_str(t, "default");
        return;
    }
    for (int k = 0; k < RTW_KINDS; k++) {
        if (k)
            rp__text_ch(t, ',');
        rp__put_int(t, c->strength[k]);
    }
    rp__text_ch(t, '/');
    for (int f = 0; f < RTW_FORTS; f++) {
        if (f)
            rp__text_ch(t, ',');
        rp__text_ch(t, c->fort_kind[f] < RTW_FORT_KINDS ? fort_letter[c->fort_kind[f]] : '?');
        rp__put_int(t, c->fort_value[f]);
    }
}

int rtw_cards_to_value(const rtw_cards *cards, char *buf, size_t size)
{
    rp_text t;
    rp__text_init(&t, buf, size);
    put_cards_value(&t, cards);
    return rp__text_finish(&t);
}

/* One fort of a spelled card set: its kind letter and value ("d5", "l-2"). */
static int read_fort_item(rp_reader *r, const char *what, rp_span item, rtw_cards *c, int f)
{
    const char *letter = item.len ? memchr(fort_letter, item.p[0], RTW_FORT_KINDS) : NULL;
    if (!letter)
        return rp__read_fail(r, what,
                             "fort %d: '%.*s' does not start with a kind letter (u "
                             "unwary, s signal, t tax, l legion, d dinary)",
                             f + 1, (int)(item.len > 12 ? 12 : item.len), item.p);
    int kind = (int)(letter - fort_letter);
    rp_span digits = {item.p + 1, item.len - 1};
    int64_t v;
    int rc = kind == RTW_LEGION ? rp__span_int(r, what, digits, -30, -1, &v)
                                : rp__span_int(r, what, digits, 1, 30, &v);
    if (rc < 0)
        return rc;
    c->fort_kind[f] = (uint8_t)kind;
    c->fort_value[f] = (int8_t)v;
    return RP_OK;
}

/* A card set value for `what` (the option, or the notation's field): "default" or the
 * canonical spelled set, which may not be the default set spelled out. */
static int read_cards_value(rp_reader *r, const char *what, rp_span v, rtw_cards *out)
{
    if (rp__span_is(v, "default")) {
        *out = *rtw_default_cards();
        return RP_OK;
    }
    rp_span strengths, forts, item;
    bool number = (v.p[0] >= '0' && v.p[0] <= '9') || v.p[0] == '+' || v.p[0] == '-';
    if (!number || !rp__span_split(v, '/', &strengths, &forts))
        return rp__read_fail(r, what,
                             "expected 'default' or nine strengths, '/', eighteen "
                             "forts (1,2,3,4,5,6,7,8,9/u2,s4,t8,l-1,...); the command line "
                             "reads a card file with cards=@FILE");
    rtw_cards c;
    memset(&c, 0, sizeof c);
    rp_list list;
    int n = 0, rc;
    rp__list_begin(&list, strengths, ',');
    while (rp__list_next(&list, &item)) {
        int64_t s;
        if (n == RTW_KINDS)
            return rp__read_fail(r, what, "more than nine strengths");
        if ((rc = rp__span_int(r, what, item, 0, 30, &s)) < 0)
            return rc;
        c.strength[n++] = (int8_t)s;
    }
    if (n != RTW_KINDS)
        return rp__read_fail(r, what,
                             "%d strengths, expected nine (filchy qween druhid zvord "
                             "archr horsie axx chariott laird)",
                             n);
    n = 0;
    rp__list_begin(&list, forts, ',');
    while (rp__list_next(&list, &item)) {
        if (n == RTW_FORTS)
            return rp__read_fail(r, what, "more than eighteen forts");
        if ((rc = read_fort_item(r, what, item, &c, n++)) < 0)
            return rc;
    }
    if (n != RTW_FORTS)
        return rp__read_fail(r, what, "%d forts, expected eighteen", n);
    if (check_cards(&c, what, r->err) < 0)
        return RP_EPARSE;
    if (cards_are_default(&c))
        return rp__read_fail(r, what, "this is the default card set: write 'default'");
    *out = c;
    return RP_OK;
}

int rtw_cards_from_value(const char *value, rtw_cards *out, rp_error *err)
{
    rp_reader r = {value, value, "", err};
    rp_span v = {value, strlen(value)};
    return read_cards_value(&r, "cards", v, out);
}

/* The cards= option's from_file: a card file's text into the option's one-word value. */
static int cards_from_file(const char *file_text, const char *file_name, char *value, size_t size,
                           rp_error *err)
{
    rtw_cards c;
    int rc = rtw_cards_parse(file_text, file_name, &c, err);
    if (rc < 0)
        return rc;
    if (rtw_cards_to_value(&c, value, size) < 0)
        return rp_fail(err, RP_ENOSPACE, "%s: the card set does not fit in %zu characters",
                       file_name, size);
    return RP_OK;
}

/* ---- narration: what an action set off, as structured notes ----
 * apply runs the rules with no narrator (NULL); events_json runs them on a copy with one, then
 * tells the notes to a viewer (tell_note). Notes hold ids, never text, so narrating costs the
 * hot path one pointer test per step. */

enum note_kind {
    N_PLACE,         /* clan placed `warrior` face down at slot `pos` (flag: again, after Zvord) */
    N_LAST_PLACE,    /* after Zvord, clan's last hidden warrior went to slot `pos` by itself */
    N_SET_ASIDE,     /* clan set aside its seventh warrior `warrior` */
    N_ATTACK,        /* turn `turn` starts: the clans fight for fort `fort` at position `pos` */
    N_REVEAL,        /* clan turned up `warrior` at slot `pos` */
    N_WRECK,         /* the clans of `mask` revealed Ch'ariotts: all discarded */
    N_QWEENS_CANCEL, /* the clans of `mask` revealed Qweens: no power (RW-7, RW-14) */
    N_QWEEN_NEUTRAL, /* a neutral clan's lone Qween: no power (RW-11) */
    N_QWEEN_ALONE,   /* clan's Qween found no rival warrior: she counts her own strength */
    N_CHARM,         /* clan's Qween charmed clan `other`'s `warrior` */
    N_TOTALS,        /* value[c]: totals; mask: clans out with Filchy */
    N_CAPTURE,       /* clan captured `fort` with value[0]; mask: clans tied (Arch'r won) */
    N_NO_CAPTURE,    /* mask: clans tied at value[0] (0: all Filchy), pos of them with Arch'r;
                      * fort lost or staying, fort2 discarded in the variant */
    N_TAKE,          /* clan's Dru'hid took `fort` at position `pos`; fort2 filled its place */
    N_UNWARY,        /* clan keeps `warrior` (RTW_NONE: none face up) */
    N_SIGNAL_FORT,   /* the Signal Fort's effect begins */
    N_SIGNAL,        /* clan discarded `warrior` for the Signal Fort */
    N_TAX,           /* clan paid `fort` (the Tax-Collector's itself when fort == fort2) */
    N_LEGION,        /* clan holds three Legions: wins (flag 0) or, neutral, cannot (flag 1) */
    N_AXX,           /* clan keeps (flag 1) or drops (flag 0) its Axx */
    N_DISCARD,       /* capturer discarded `mask`, keeping `mask2` */
    N_HORSIE,        /* clan's Horsie lost: it discarded `warrior` (RTW_NONE: nothing left) */
    N_ZVORD,         /* clan's Zvord: it takes back `pos` hidden warriors to place again */
    N_ROUND_END,     /* round `round` ended; value[c]: fort points */
    N_ROUND,         /* round `round` begins with The Wall `wall` */
    N_DRAW,          /* clan drew the seven warriors `mask` */
    N_NEUTRAL_PLAN,  /* a neutral clan laid six random warriors face down */
    N_GAME_OVER,     /* flag 1: a three-Legion win */
    N_TO_ACT         /* clan must decide next (phase of the state after) */
};

typedef struct rtw_note {
    uint8_t kind, round, turn, pos;
    int8_t clan, other;
    uint8_t warrior, fort, fort2, flag;
    uint16_t mask, mask2;
    int16_t value[RTW_MAX_CLANS];
    uint8_t wall[RTW_SLOTS];
} rtw_note;

/* Enough for the longest chain: the last placement of a round resolving all six turns
 * (about 22 notes each), the round's end and the next round's start. */
#define RTW_MAX_NOTES 256

typedef struct rtw_tell {
    rtw_note note[RTW_MAX_NOTES];
    int n;
} rtw_tell;

/* The rules take a narrator `t` all along. The stages of a turn are inlined into both
 * callers, so apply (t = NULL) compiles them without narration; the few functions called once
 * a turn or a round keep one copy and test t (measured: docs/games/rush-the-wall.md). */
#if defined(__GNUC__)
#define NARRATED static inline __attribute__((always_inline))
#else
#define NARRATED static inline
#endif

/* A new note in t (not NULL); kept out of line, as only events_json narrates. */
#if defined(__GNUC__)
__attribute__((noinline, cold))
#endif
static rtw_note *
new_note(rtw_tell *t, const rtw_state *s, int kind, int clan)
{
    rp_assert(t->n < RTW_MAX_NOTES);
    if (t->n == RTW_MAX_NOTES)
        return NULL;
    rtw_note *n = &t->note[t->n++];
    memset(n, 0, sizeof *n);
    n->kind = (uint8_t)kind;
    n->round = s->round;
    n->turn = s->turn;
    n->clan = (int8_t)clan;
    n->other = -1;
    n->warrior = n->fort = n->fort2 = RTW_NONE;
    return n;
}

/* A new note of `kind` about `clan` (or -1), or NULL when nobody narrates: one test on the
 * hot path (apply narrates to nobody). */
static inline rtw_note *say(rtw_tell *t, const rtw_state *s, int kind, int clan)
{
    return t ? new_note(t, s, kind, clan) : NULL;
}

/* A note that only names a warrior. */
static inline void say_warrior(rtw_tell *t, const rtw_state *s, int kind, int clan, int warrior)
{
    rtw_note *n = say(t, s, kind, clan);
    if (n)
        n->warrior = (uint8_t)warrior;
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
 * each neutral clan's 6 random warriors in random order; the first clan starts planning. The
 * rounds before keep their warriors in `prev` (RW-12: they return to their clans). */
static void start_round(rtw_state *s, int round, rtw_tell *t)
{
    if (round > 0) /* rows of clans not in the game are zero in both */
        memcpy(s->prev, s->slot, sizeof s->prev);
    s->round = (uint8_t)round;
    s->turn = 0;
    rtw_arrange_wall(&s->cards, &s->deck[RTW_SLOTS * round], s->wall);
    rtw_note *n = say(t, s, N_ROUND, -1);
    if (n)
        memcpy(n->wall, s->wall, RTW_SLOTS);
    for (int c = 0; c < s->clans; c++) {
        uint8_t order[RTW_KINDS] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
        rp_rng_shuffle_u8(&s->rng, order, RTW_KINDS);
        uint16_t m = 0;
        int drawn = is_player(s, c) ? RTW_DRAW : RTW_SLOTS;
        for (int i = 0; i < drawn; i++)
            m |= BIT(order[i]);
        s->drawn[c] = m;
        s->up[c] = 0;
        if (is_player(s, c)) {
            s->hand[c] = m;
            memset(s->slot[c], RTW_NONE, RTW_SLOTS);
            if ((n = say(t, s, N_DRAW, c)))
                n->mask = m;
        } else {
            s->hand[c] = 0;
            memcpy(s->slot[c], order, RTW_SLOTS);
            say(t, s, N_NEUTRAL_PLAN, c);
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

/* RW-8 without a capturer: RW-13, RW-19 in the variant the fort stays, the rightmost goes and
 * the rest slide right; else the fort is discarded. */
NARRATED void nobody_captures(rtw_state *s, rtw_tell *t, uint16_t tied, int best, int archers)
{
    int turn = s->turn;
    rtw_note *n = say(t, s, N_NO_CAPTURE, -1);
    if (n) {
        n->mask = tied;
        n->value[0] = (int16_t)best;
        n->pos = (uint8_t)archers;
        n->fort = s->wall[turn];
        n->fort2 = s->wall[RTW_SLOTS - 1];
        n->flag = s->variant;
    }
    if (s->variant) {
        s->gone |= 1u << s->wall[RTW_SLOTS - 1];
        for (int i = RTW_SLOTS - 1; i > turn; i--)
            s->wall[i] = s->wall[i - 1];
    } else {
        s->gone |= 1u << s->wall[turn];
    }
    s->wall[turn] = RTW_NONE;
}

/* RW-8: totals after Qween (qclan charms target, or -1), Filchy drop-outs, Arch'r ties. */
/* The clans that revealed warrior kind k this turn (for the narrator only). */
static uint16_t clans_revealing(const rtw_state *s, int k)
{
    uint16_t mask = 0;
    for (int c = 0; c < s->clans; c++)
        if (revealed(s, c) == k)
            mask |= BIT(c);
    return mask;
}

/* The clans tied at the best total (for the narrator only). */
static uint16_t clans_tied(const rtw_state *s, const int *total, int best)
{
    uint16_t mask = 0;
    for (int c = 0; c < s->clans; c++)
        if (revealed(s, c) != RTW_FILCHY && total[c] == best)
            mask |= BIT(c);
    return mask;
}

static void decide_capture(rtw_state *s, rtw_tell *t, int qclan, int target)
{
    int total[RTW_MAX_CLANS];
    for (int c = 0; c < s->clans; c++)
        total[c] = strength_of(s, s->up[c]);
    if (target >= 0) { /* RW-7: her value replaced by the charmed one's, which counts 0 */
        int stolen = s->cards.strength[revealed(s, target)];
        total[qclan] += stolen - s->cards.strength[RTW_QWEEN];
        total[target] -= stolen;
        rtw_note *n = say(t, s, N_CHARM, qclan);
        if (n) {
            n->other = (int8_t)target;
            n->warrior = (uint8_t)revealed(s, target);
        }
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
    rtw_note *n = say(t, s, N_TOTALS, -1);
    if (n) {
        n->mask = clans_revealing(s, RTW_FILCHY);
        for (int c = 0; c < s->clans; c++)
            n->value[c] = (int16_t)total[c];
    }
    uint16_t tied_mask = t && tied > 1 ? clans_tied(s, total, best) : 0;
    if (tied > 1)
        winner = archers == 1 ? archer : -1;
    s->capturer = (int8_t)winner;
    if (winner < 0) {
        nobody_captures(s, t, tied_mask, best, archers);
        return;
    }
    if ((n = say(t, s, N_CAPTURE, winner))) {
        n->fort = s->wall[s->turn];
        n->value[0] = (int16_t)best;
        n->mask = tied_mask;
    }
}

/* Reveal, Ch'ariott collisions, then Qween: stops when a Qween's owner must pick. */
NARRATED bool stage_reveal(rtw_state *s, rtw_tell *t)
{
    int chariotts = 0, qweens = 0, qclan = -1;
    s->capturer = -1;
    s->captured = RTW_NONE;
    s->keep = 0;
    rtw_note *n = say(t, s, N_ATTACK, -1);
    if (n) {
        n->fort = s->wall[s->turn];
        n->pos = s->turn;
    }
    for (int c = 0; c < s->clans; c++) {
        int k = revealed(s, c);
        s->up[c] |= BIT(k);
        chariotts += k == RTW_CHARIOTT;
        if (k == RTW_QWEEN) {
            qweens++;
            qclan = c;
        }
        if ((n = say(t, s, N_REVEAL, c))) {
            n->warrior = (uint8_t)k;
            n->pos = s->turn;
        }
    }
    if (chariotts >= 2) { /* RW-6: colliding Ch'ariotts are discarded before points */
        for (int c = 0; c < s->clans; c++)
            if (revealed(s, c) == RTW_CHARIOTT)
                s->up[c] &= (uint16_t)~BIT(RTW_CHARIOTT);
        if ((n = say(t, s, N_WRECK, -1)))
            n->mask = clans_revealing(s, RTW_CHARIOTT);
    }
    int target = -1;
    if (qweens >= 2) { /* RW-7, RW-14: two or more Qweens cancel */
        if ((n = say(t, s, N_QWEENS_CANCEL, -1)))
            n->mask = clans_revealing(s, RTW_QWEEN);
    } else if (qweens == 1 && !is_player(s, qclan)) { /* RW-11: a neutral's has no power */
        say(t, s, N_QWEEN_NEUTRAL, qclan);
    } else if (qweens == 1) {
        uint16_t choices = charm_choices(s, qclan);
        if (popcount(choices) > 1) {
            wait_for(s, RTW_QWEEN_PICK, qclan);
            return true;
        }
        if (choices)
            target = lowest_bit(choices);
        else
            say(t, s, N_QWEEN_ALONE, qclan);
    }
    decide_capture(s, t, target >= 0 ? qclan : -1, target);
    return false;
}

/* RW-9 Dru'hid: take the fort at wall position pos; the leftmost fills its place (or, in the
 * variant RW-13, the forts left of it slide one place right). */
static void take_fort(rtw_state *s, rtw_tell *t, int pos)
{
    int turn = s->turn;
    int fort = s->wall[pos];
    rtw_note *n = say(t, s, N_TAKE, s->capturer);
    if (n) {
        n->fort = (uint8_t)fort;
        n->fort2 = s->wall[turn];
        n->pos = (uint8_t)pos;
        n->flag = s->variant;
    }
    if (pos != turn) {
        if (s->variant) {
            for (int i = pos; i > turn; i--)
                s->wall[i] = s->wall[i - 1];
        } else {
            s->wall[pos] = s->wall[turn];
        }
    }
    s->wall[turn] = RTW_NONE;
    s->captured = (uint8_t)fort;
    s->forts[s->capturer] |= 1u << fort;
}

NARRATED bool stage_druhid(rtw_state *s)
{
    int cap = s->capturer;
    if (cap < 0)
        return false;
    if (is_player(s, cap) && revealed(s, cap) == RTW_DRUHID && s->turn < RTW_SLOTS - 1) {
        wait_for(s, RTW_DRUHID_PICK, cap);
        return true;
    }
    take_fort(s, NULL, s->turn); /* the capture note already named the fort */
    return false;
}

/* Discard one face-up warrior of clan c, told as a note of `kind`. */
NARRATED void discard_up(rtw_state *s, rtw_tell *t, int kind, int c, int warrior)
{
    s->up[c] &= (uint16_t)~BIT(warrior);
    say_warrior(t, s, kind, c, warrior);
}

/* RW-10 Signal, the capturer's own discard (RTW-P2): everything but a kept Axx goes right after,
 * so it discards its weakest warrior other than the Axx it revealed, Axx only when alone. */
NARRATED void signal_capturer(rtw_state *s, rtw_tell *t)
{
    int cap = s->capturer;
    uint16_t up = s->up[cap];
    say(t, s, N_SIGNAL_FORT, cap);
    if (!up)
        return;
    uint16_t pool = up; /* RW-11: a neutral discards its weakest */
    if (is_player(s, cap) && revealed(s, cap) == RTW_AXX && (up & ~BIT(RTW_AXX)))
        pool = (uint16_t)(up & ~BIT(RTW_AXX));
    discard_up(s, t, N_SIGNAL, cap, weakest(s, pool));
}

/* Pay fort f for the Tax-Collector's (RW-17). */
NARRATED void pay_fort(rtw_state *s, rtw_tell *t, int f)
{
    int cap = s->capturer;
    s->forts[cap] &= ~(1u << f);
    s->gone |= 1u << f;
    rtw_note *n = say(t, s, N_TAX, cap);
    if (n) {
        n->fort = (uint8_t)f;
        n->fort2 = s->captured;
    }
}

/* RW-17: pay a fort for the Tax-Collector's; the neutral pays its lowest other fort. */
NARRATED bool tax(rtw_state *s, rtw_tell *t)
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
    pay_fort(s, t, pay);
    return false;
}

/* The captured fort's effect (RW-10, RW-18). Stops for a Tax choice or a Legion win. */
NARRATED bool stage_fort(rtw_state *s, rtw_tell *t)
{
    int cap = s->capturer;
    if (cap < 0)
        return false;
    switch (s->cards.fort_kind[s->captured]) {
    case RTW_UNWARY: {
        int kept = s->up[cap] ? weakest(s, s->up[cap]) : RTW_NONE;
        if (kept != RTW_NONE)
            s->keep |= BIT(kept);
        say_warrior(t, s, N_UNWARY, cap, kept);
        return false;
    }
    case RTW_SIGNAL:
        signal_capturer(s, t);
        return false;
    case RTW_TAX:
        return tax(s, t);
    case RTW_LEGION: {
        if (legions(s, cap) < RTW_LEGION_WIN)
            return false;
        rtw_note *n = say(t, s, N_LEGION, cap);
        if (n)
            n->flag = !is_player(s, cap);
        if (!is_player(s, cap)) /* RW-18: a neutral does not win, play goes on */
            return false;
        s->winner = (int8_t)cap;
        wait_for(s, RTW_OVER, 0);
        say(t, s, N_GAME_OVER, cap);
        return true;
    }
    default:
        return false;
    }
}

/* RW-10 Signal for every other clan, in seat order (RW-6) from `from`. */
NARRATED bool stage_signal(rtw_state *s, rtw_tell *t, int from)
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
        discard_up(s, t, N_SIGNAL, c, weakest(s, up));
    }
    return false;
}

/* RW-9 Axx: a player capturer may keep it; a neutral always does (RW-11). */
NARRATED bool stage_axx(rtw_state *s, rtw_tell *t)
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
    rtw_note *n = say(t, s, N_AXX, cap);
    if (n)
        n->flag = 1;
    return false;
}

/* The capturer discards its face-up warriors but the kept ones. */
NARRATED void stage_discard(rtw_state *s, rtw_tell *t)
{
    int cap = s->capturer;
    if (cap >= 0) {
        uint16_t gone = (uint16_t)(s->up[cap] & ~s->keep), kept = (uint16_t)(s->up[cap] & s->keep);
        rtw_note *n = gone || kept ? say(t, s, N_DISCARD, cap) : NULL;
        if (n) {
            n->mask = gone;
            n->mask2 = kept;
        }
        s->up[cap] = kept;
    }
    s->keep = 0;
}

/* RW-9 Horsie for every clan that revealed her and did not capture, in seat order. RW-20
 * (RTW-P3): her penalty belongs to the turn she was revealed, so it applies even when a Signal
 * discarded her earlier this turn, and takes nothing when nothing is left face up. */
NARRATED bool stage_horsie(rtw_state *s, rtw_tell *t, int from)
{
    for (int c = from; c < s->clans; c++) {
        if (c == s->capturer || revealed(s, c) != RTW_HORSIE)
            continue;
        uint16_t choices = horsie_choices(s, c);
        if (!choices) {
            say_warrior(t, s, N_HORSIE, c, RTW_NONE);
            continue;
        }
        if (is_player(s, c) && popcount(choices) > 1) {
            wait_for(s, RTW_HORSIE_PICK, c);
            return true;
        }
        discard_up(s, t, N_HORSIE, c, weakest(s, choices)); /* RW-11 for neutrals */
    }
    return false;
}

/* RW-6, RW-19 Zvord: a player clan takes back its hidden warriors and places them again. */
NARRATED bool stage_zvord(rtw_state *s, rtw_tell *t, int from)
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
        rtw_note *n = say(t, s, N_ZVORD, c);
        if (n)
            n->pos = (uint8_t)(RTW_SLOTS - first);
        wait_for(s, RTW_ZVORD_PLACE, c);
        return true;
    }
    return false;
}

/* RW-12: the next turn, else the next round, else the end. */
NARRATED bool stage_end(rtw_state *s, rtw_tell *t)
{
    if (s->turn + 1 < RTW_SLOTS) {
        s->turn++;
        return false;
    }
    rtw_note *n = say(t, s, N_ROUND_END, -1);
    for (int c = 0; n && c < s->clans; c++)
        n->value[c] = (int16_t)fort_total(s, c);
    if (s->round + 1 < RTW_ROUNDS) {
        start_round(s, s->round + 1, t);
    } else {
        wait_for(s, RTW_OVER, 0);
        say(t, s, N_GAME_OVER, -1);
    }
    return true;
}

/* Run the turn from `stage` (and, for per-clan stages, from clan `from`) until a clan must
 * decide or the game ends. */
NARRATED void resolve(rtw_state *s, rtw_tell *t, int stage, int from)
{
    for (;;) {
        bool stop = false;
        switch (stage) {
        case ST_REVEAL:
            stop = stage_reveal(s, t);
            break;
        case ST_DRUHID:
            stop = stage_druhid(s);
            break;
        case ST_FORT:
            stop = stage_fort(s, t);
            break;
        case ST_SIGNAL:
            stop = stage_signal(s, t, from);
            break;
        case ST_AXX:
            stop = stage_axx(s, t);
            break;
        case ST_DISCARD:
            stage_discard(s, t);
            break;
        case ST_HORSIE:
            stop = stage_horsie(s, t, from);
            break;
        case ST_ZVORD:
            stop = stage_zvord(s, t, from);
            break;
        default:
            if (stage_end(s, t))
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

/* ---- the interface: options, init, players, legal actions, apply, returns ---- */

enum { OPT_NEUTRALS, OPT_VARIANT, OPT_CARDS };

static const rp_option_spec rtw_options[] = {
    {"neutrals", RP_OPT_INT, 0, 2, 0, NULL,
     "neutral clans (RW-11); total clans 2..4; one player alone gets 1 unless told", NULL},
    {"variant", RP_OPT_CHOICE, 0, 1, 0, "standard|vogel",
     "vogel: Eric B. Vogel's original rules for ties and Dru'hid (RW-13)", NULL},
    {"cards", RP_OPT_TEXT, 0, 0, 0, NULL,
     "the card set: default, or nine strengths/eighteen forts "
     "(1,2,3,4,5,6,7,8,9/u2,s4,t8,l-1,...); cards=@FILE reads a card file (command line)",
     cards_from_file},
};

/* RW-1, RTW-P5: the neutral clans these options give (one player alone gets one). */
static int neutrals_of(const rp_config *cfg)
{
    if (!cfg->given[OPT_NEUTRALS] && cfg->players == 1)
        return 1;
    return (int)cfg->value[OPT_NEUTRALS];
}

static int rtw_init(void *st, const rp_config *cfg, rp_error *err)
{
    int players = cfg->players;
    int neutrals = neutrals_of(cfg);
    if (players + neutrals < 2)
        return rp_fail(err, RP_EINVAL, "players=1 needs neutrals=1 or 2 (RW-1: 2..4 clans)");
    if (players + neutrals > RTW_MAX_CLANS)
        return rp_fail(err, RP_EINVAL, "players=%d neutrals=%d: at most %d clans in all (RW-1)",
                       players, neutrals, RTW_MAX_CLANS);
    rtw_cards cards = *rtw_default_cards();
    if (cfg->given[OPT_CARDS]) {
        int rc = rtw_cards_from_value(cfg->text[OPT_CARDS], &cards, err);
        if (rc < 0)
            return RP_EINVAL;
    }
    rtw_state *s = st;
    memset(s, 0, sizeof *s);
    s->cards = cards;
    s->players = (uint8_t)players;
    s->neutrals = (uint8_t)neutrals;
    s->clans = (uint8_t)(players + neutrals);
    s->variant = (uint8_t)cfg->value[OPT_VARIANT];
    s->winner = -1;
    memset(s->prev, RTW_NONE, (size_t)s->clans * sizeof s->prev[0]);
    rp_rng_seed(&s->rng, cfg->seed, 0x52545741u);
    for (int i = 0; i < RTW_FORTS; i++)
        s->deck[i] = (uint8_t)i;
    rp_rng_shuffle_u8(&s->rng, s->deck, RTW_FORTS);
    start_round(s, 0, NULL);
    return RP_OK;
}

/* The options in effect (issue 18): the neutrals really in play (RTW-P5 gives a solo game
 * one), the variant, and the card set unless it is the default one. */
static void rtw_config_of(const void *st, rp_config *cfg)
{
    const rtw_state *s = st;
    cfg->players = s->players;
    cfg->players_given = true;
    cfg->value[OPT_NEUTRALS] = s->neutrals;
    cfg->given[OPT_NEUTRALS] = true;
    cfg->value[OPT_VARIANT] = s->variant;
    cfg->given[OPT_VARIANT] = true;
    cfg->given[OPT_CARDS] = !cards_are_default(&s->cards);
    cfg->text[OPT_CARDS][0] = '\0';
    if (cfg->given[OPT_CARDS])
        rtw_cards_to_value(&s->cards, cfg->text[OPT_CARDS], sizeof cfg->text[OPT_CARDS]);
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

/* The rulebook's turns: six a round (one per fort), so 1..18; planning belongs to the first
 * turn of its round. */
static int rtw_turn_number(const void *st)
{
    const rtw_state *s = st;
    return s->round * RTW_SLOTS + s->turn + 1;
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
NARRATED void apply_place(rtw_state *s, rtw_tell *t, int kind)
{
    int a = s->actor;
    rtw_note *n = say(t, s, N_PLACE, a);
    if (n) {
        n->warrior = (uint8_t)kind;
        n->pos = s->next_slot;
        n->flag = s->phase == RTW_ZVORD_PLACE;
    }
    s->slot[a][s->next_slot++] = (uint8_t)kind;
    s->hand[a] &= (uint16_t)~BIT(kind);
    if (s->phase == RTW_PLAN) {
        if (s->next_slot < RTW_SLOTS)
            return;
        say_warrior(t, s, N_SET_ASIDE, a, lowest_bit(s->hand[a]));
        s->hand[a] = 0;
        s->next_slot = 0;
        if (a + 1 < s->players) {
            s->actor = (uint8_t)(a + 1);
            return;
        }
        resolve(s, t, ST_REVEAL, 0);
        return;
    }
    if (popcount(s->hand[a]) > 1)
        return;
    int last = lowest_bit(s->hand[a]);
    s->slot[a][s->next_slot] = (uint8_t)last;
    if ((n = say(t, s, N_LAST_PLACE, a))) {
        n->warrior = (uint8_t)last;
        n->pos = s->next_slot;
    }
    s->hand[a] = 0;
    s->next_slot = 0;
    resolve(s, t, ST_ZVORD, a + 1);
}

/* apply, telling t (NULL: nobody) what happened. */
NARRATED void apply_told(rtw_state *s, rtw_tell *t, rp_action action)
{
    int a = s->actor;
    switch (s->phase) {
    case RTW_PLAN:
    case RTW_ZVORD_PLACE:
        apply_place(s, t, (int)(action - RTW_A_PLACE));
        return;
    case RTW_QWEEN_PICK:
        decide_capture(s, t, a, (int)(action - RTW_A_CHARM));
        resolve(s, t, ST_DRUHID, 0);
        return;
    case RTW_DRUHID_PICK:
        take_fort(s, t, (int)(action - RTW_A_TAKE));
        resolve(s, t, ST_FORT, 0);
        return;
    case RTW_SIGNAL_PICK:
        discard_up(s, t, N_SIGNAL, a, (int)(action - RTW_A_DISCARD));
        resolve(s, t, ST_SIGNAL, a + 1);
        return;
    case RTW_HORSIE_PICK:
        discard_up(s, t, N_HORSIE, a, (int)(action - RTW_A_DISCARD));
        resolve(s, t, ST_HORSIE, a + 1);
        return;
    case RTW_TAX_PICK:
        pay_fort(s, t, (int)(action - RTW_A_PAY));
        resolve(s, t, ST_AXX, 0);
        return;
    case RTW_AXX_PICK: {
        rtw_note *n = say(t, s, N_AXX, a);
        if (n)
            n->flag = action == RTW_A_KEEP_AXX;
        if (action == RTW_A_KEEP_AXX)
            s->keep |= BIT(RTW_AXX);
        resolve(s, t, ST_DISCARD, 0);
        return;
    }
    default:
        return;
    }
}

static void rtw_apply(void *st, rp_action action)
{
    apply_told(st, NULL, action);
    RP_DEBUG_STATE_OK(&rp_rush_the_wall, st);
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
    int ha = highest_fort(s, a), hb = highest_fort(s, b);
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

/* ---- action notation, actions as data, why an action is not legal ---- */

/* A fort's label, kind then value: "legion-2", "dinary5", "tax8" (moves, views, events). */
static int fort_label(const rtw_cards *c, int f, char *buf, size_t size)
{
    rp_text t;
    rp__text_init(&t, buf, size);
    rp__text_str(&t, c->fort_kind[f] < RTW_FORT_KINDS ? fort_word[c->fort_kind[f]] : "?");
    rp__put_int(&t, c->fort_value[f]);
    return rp__text_finish(&t);
}

/* A fort for people: "Legion -2", "Fort-Dinary 5". */
static void fort_text(const rtw_cards *c, int f, char *buf, size_t size)
{
    snprintf(buf, size, "%s %d", fort_name[c->fort_kind[f]], c->fort_value[f]);
}

/* A warrior for people, with its strength: "Arch'r 5". */
static void warrior_text(const rtw_state *s, int k, char *buf, size_t size)
{
    snprintf(buf, size, "%s %d", warrior_name[k], s->cards.strength[k]);
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
        for (size_t i = 0; i <= strlen(text); i++) /* forgiving about case */
            copy[i] = (char)(text[i] >= 'A' && text[i] <= 'Z' ? text[i] - 'A' + 'a' : text[i]);
        n = split_words(copy, word, 2);
    }
    const char *verb = n > 0 ? word[0] : "", *arg = n > 1 ? word[1] : "";
    if (n != 2)
        return rp_fail(err, RP_EPARSE,
                       "'%s': expected two words such as 'place axx', "
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
            return rp_fail(err, RP_EPARSE,
                           "unknown warrior '%s' (filchy, qween, druhid, zvord, "
                           "archr, horsie, axx, chariott, laird)",
                           arg);
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
    return rp_fail(err, RP_EPARSE,
                   "unknown move '%s' (place, charm, take, discard, pay, keep axx, drop axx)",
                   text);
}

static void put_string(cJSON *o, const char *key, const char *text)
{
    cJSON_AddItemToObjectCS(o, key, cJSON_CreateString(text));
}

static void put_number(cJSON *o, const char *key, double value)
{
    cJSON_AddItemToObjectCS(o, key, cJSON_CreateNumber(value));
}

static void put_fort(cJSON *o, const char *key, const rtw_cards *c, int f)
{
    char label[32];
    if (f == RTW_NONE) {
        cJSON_AddItemToObjectCS(o, key, cJSON_CreateNull());
        return;
    }
    fort_label(c, f, label, sizeof label);
    put_string(o, key, label);
}

/* An action as data: {"kind": "place", "warrior": "axx", "slot": 3}, "charm" with "clan" and
 * the "warrior" charmed, "take" with "position" and "fort", "discard" with "warrior" and
 * "reason" (signal or horsie), "pay" with "fort", "keep"/"drop" with "warrior": "axx". */
static cJSON *rtw_action_json(const void *st, rp_action action)
{
    const rtw_state *s = st;
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    if (action <= RTW_A_HIDDEN) {
        put_string(o, "kind", "place");
        if (action == RTW_A_HIDDEN)
            cJSON_AddItemToObjectCS(o, "warrior", cJSON_CreateNull());
        else
            put_string(o, "warrior", warrior_word[action]);
        put_number(o, "slot", s->next_slot + 1);
    } else if (action < RTW_A_TAKE) {
        int c = (int)(action - RTW_A_CHARM);
        put_string(o, "kind", "charm");
        put_string(o, "clan", clan_word[c]);
        if (c < s->clans)
            put_string(o, "warrior", warrior_word[revealed(s, c)]);
    } else if (action < RTW_A_DISCARD) {
        int pos = (int)(action - RTW_A_TAKE);
        put_string(o, "kind", "take");
        put_number(o, "position", pos + 1);
        put_fort(o, "fort", &s->cards, s->wall[pos]);
    } else if (action < RTW_A_PAY) {
        put_string(o, "kind", "discard");
        put_string(o, "warrior", warrior_word[action - RTW_A_DISCARD]);
        put_string(o, "reason", s->phase == RTW_HORSIE_PICK ? "horsie" : "signal");
    } else if (action < RTW_A_KEEP_AXX) {
        put_string(o, "kind", "pay");
        put_fort(o, "fort", &s->cards, (int)(action - RTW_A_PAY));
    } else {
        put_string(o, "kind", action == RTW_A_KEEP_AXX ? "keep" : "drop");
        put_string(o, "warrior", "axx");
    }
    return o;
}

/* One item of a list for people, by id. */
typedef void (*item_namer)(const rtw_state *s, int id, char *buf, size_t size);

static void fort_label_of(const rtw_state *s, int f, char *buf, size_t size)
{
    fort_label(&s->cards, f, buf, size);
}

static void fort_text_of(const rtw_state *s, int f, char *buf, size_t size)
{
    fort_text(&s->cards, f, buf, size);
}

/* The items of mask, named, comma-separated ("Axx 7, Laird 9"), or "none", into t. */
static void list_items(rp_text *t, const rtw_state *s, uint32_t mask, item_namer name)
{
    char buf[48];
    if (!mask)
        rp__text_str(t, "none");
    for (int first = 1; mask; mask &= mask - 1, first = 0) {
        name(s, lowest_bit(mask), buf, sizeof buf);
        rp__text_str(t, first ? "" : ", ");
        rp__text_str(t, buf);
    }
}

static void list_warriors(rp_text *t, const rtw_state *s, uint32_t mask)
{
    list_items(t, s, mask, warrior_text);
}

/* What the phase asks for, as the move to type. */
static const char *const phase_move[RTW_PHASES] = {
    "place a warrior face down: place WARRIOR",
    "place its hidden warriors again (Zvord): place WARRIOR",
    "pick the rival warrior its Qween charms: charm CLAN",
    "pick the fort its Dru'hid takes: take POSITION",
    "discard a face-up warrior for the Signal Fort: discard WARRIOR",
    "pay one of its other forts for the Tax-Collector's Fort: pay FORT",
    "keep its Axx face up or drop it: keep axx or drop axx",
    "discard a face-up warrior for its Horsie: discard WARRIOR",
    ""};

/* The action's family matches the phase (place, charm, take, discard, pay, keep/drop). */
static bool fits_phase(const rtw_state *s, rp_action a)
{
    switch (s->phase) {
    case RTW_PLAN:
    case RTW_ZVORD_PLACE:
        return a < RTW_A_HIDDEN;
    case RTW_QWEEN_PICK:
        return a >= RTW_A_CHARM && a < RTW_A_TAKE;
    case RTW_DRUHID_PICK:
        return a >= RTW_A_TAKE && a < RTW_A_DISCARD;
    case RTW_SIGNAL_PICK:
    case RTW_HORSIE_PICK:
        return a >= RTW_A_DISCARD && a < RTW_A_PAY;
    case RTW_TAX_PICK:
        return a >= RTW_A_PAY && a < RTW_A_KEEP_AXX;
    case RTW_AXX_PICK:
        return a == RTW_A_KEEP_AXX || a == RTW_A_DROP_AXX;
    default:
        return false;
    }
}

/* Why a placement of warrior k is not legal: not drawn, set aside, or already placed. */
static void explain_place(const rtw_state *s, rp_text *t, int k)
{
    int a = s->actor;
    for (int i = 0; i < RTW_SLOTS; i++)
        if (s->slot[a][i] == k) {
            rp__text_put(t, "your %s is already %s at slot %d", warrior_name[k],
                         i < shown_slots(s) ? "turned up" : "placed", i + 1);
            return;
        }
    rp__text_put(t, "%s is not among the warriors you may place now (", warrior_name[k]);
    list_warriors(t, s, s->hand[a]);
    rp__text_ch(t, ')');
}

static void explain_charm(const rtw_state *s, rp_text *t, int c)
{
    if (c >= s->clans)
        rp__text_put(t, "there is no %s clan in this game", clan_name[c]);
    else if (c == s->actor)
        rp__text_str(t, "the Qween charms a rival clan's warrior, not one of your own");
    else
        rp__text_put(t, "%s's warrior of this turn is no longer face up (the Ch'ariotts collided)",
                     clan_name[c]);
}

static void explain_discard(const rtw_state *s, rp_text *t, int k)
{
    int a = s->actor;
    if (s->phase == RTW_HORSIE_PICK && k == RTW_HORSIE && (s->up[a] & BIT(k))) {
        rp__text_str(t, "your Horsie makes you discard another face-up warrior; she goes only "
                        "when she is alone (RW-9)");
        return;
    }
    rp__text_put(t, "%s is not face up (face up: ", warrior_name[k]);
    list_warriors(t, s, s->up[a]);
    rp__text_ch(t, ')');
}

static void explain_pay(const rtw_state *s, rp_text *t, int f)
{
    char label[32];
    fort_label(&s->cards, f, label, sizeof label);
    if (f == s->captured) {
        rp__text_str(t, "you pay one of your other forts; the Tax-Collector's goes only when "
                        "you hold no other (RW-17)");
        return;
    }
    rp__text_put(t, "you do not hold %s (you may pay: ", label);
    list_items(t, s, tax_choices(s), fort_label_of);
    rp__text_ch(t, ')');
}

static int rtw_explain_illegal(const void *st, rp_action action, char *buf, size_t size)
{
    const rtw_state *s = st;
    rp_text t;
    rp__text_init(&t, buf, size);
    if (s->phase == RTW_OVER || action >= RTW_NUM_ACTIONS ||
        rp_is_legal(&rp_rush_the_wall, s, action))
        return -1;
    if (action == RTW_A_HIDDEN)
        rp__text_str(&t, "'place hidden' stands for another clan's placement; name the warrior "
                         "you place (place axx)");
    else if (!fits_phase(s, action))
        rp__text_put(&t, "%s must now %s", clan_name[s->actor], phase_move[s->phase]);
    else if (action < RTW_A_HIDDEN)
        explain_place(s, &t, (int)action);
    else if (action < RTW_A_TAKE)
        explain_charm(s, &t, (int)(action - RTW_A_CHARM));
    else if (action < RTW_A_DISCARD)
        rp__text_put(&t, "wall position %d %s", (int)(action - RTW_A_TAKE) + 1,
                     (int)(action - RTW_A_TAKE) < s->turn ? "was fought over already"
                                                          : "holds no fort");
    else if (action < RTW_A_PAY)
        explain_discard(s, &t, (int)(action - RTW_A_DISCARD));
    else if (action < RTW_A_KEEP_AXX)
        explain_pay(s, &t, (int)(action - RTW_A_PAY));
    else
        return -1;
    return rp__text_finish(&t);
}

/* ---- invariants of a state (state_ok: every loaded state, every apply in debug builds) ---- */

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
            return rp_fail(err, RP_EINVAL, "%s: slot %d should be %s in this phase", name, i + 1,
                           i < to ? "filled" : "empty");
    int hand_size = popcount(s->hand[c]);
    if (in_slots & s->hand[c])
        return rp_fail(err, RP_EINVAL, "%s: a warrior both placed and in hand", name);
    if ((in_slots | s->hand[c]) & ~s->drawn[c])
        return rp_fail(err, RP_EINVAL, "%s: a placed or held warrior was not drawn", name);
    if (!is_player(s, c)) {
        if (s->hand[c] || s->drawn[c] != in_slots)
            return rp_fail(err, RP_EINVAL,
                           "%s: a neutral clan holds exactly its 6 placed warriors (RW-11)", name);
    } else {
        if (popcount(s->drawn[c]) != RTW_DRAW)
            return rp_fail(err, RP_EINVAL, "%s: a clan draws exactly 7 warriors (RW-5)", name);
        int want = 0;
        if (s->phase == RTW_PLAN && c >= s->actor)
            want = RTW_DRAW - to;
        else if (s->phase == RTW_ZVORD_PLACE && c == s->actor)
            want = RTW_SLOTS - to;
        if (hand_size != want)
            return rp_fail(err, RP_EINVAL, "%s: %d warriors in hand, expected %d", name, hand_size,
                           want);
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
        return rp_fail(err, RP_EINVAL,
                       "the forts drawn so far are not all accounted for (wall, clans, discards)");
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
    /* Ranges first: views and observations name these in every phase, the end included. */
    if (cap >= s->clans)
        return rp_fail(err, RP_EINVAL, "capturer: no clan %d", cap);
    if (s->captured != RTW_NONE && s->captured >= RTW_FORTS)
        return rp_fail(err, RP_EINVAL, "captured: no fort %d", s->captured);
    if (ph == RTW_OVER) {
        if (a != 0 || s->next_slot != 0 || s->keep != 0)
            return rp_fail(err, RP_EINVAL, "actor, next, keep: must be 0 when the game is over");
        if (s->winner >= 0 && (!is_player(s, s->winner) || legions(s, s->winner) < RTW_LEGION_WIN))
            return rp_fail(err, RP_EINVAL, "winner: needs three Legions (RW-18)");
        return RP_OK;
    }
    if (s->winner != -1)
        return rp_fail(err, RP_EINVAL, "winner: set while the game goes on");
    if (a >= s->players)
        return rp_fail(err, RP_EINVAL, "actor: %d is not a player clan", a);
    if (ph == RTW_PLAN          ? s->next_slot >= RTW_SLOTS
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
                return rp_fail(err, RP_EINVAL, "%s: this turn's warrior should be %s", clan_word[c],
                               gone ? "discarded (RW-6)" : "face up");
        }
    }
    static const int needs[RTW_PHASES] = {[RTW_ZVORD_PLACE] = RTW_ZVORD,
                                          [RTW_QWEEN_PICK] = RTW_QWEEN,
                                          [RTW_DRUHID_PICK] = RTW_DRUHID,
                                          [RTW_AXX_PICK] = RTW_AXX,
                                          [RTW_HORSIE_PICK] = RTW_HORSIE,
                                          [RTW_SIGNAL_PICK] = -1,
                                          [RTW_TAX_PICK] = -1};
    if (needs[ph] >= 0 && revealed(s, a) != needs[ph])
        return rp_fail(err, RP_EINVAL, "phase %s: %s did not reveal %s", phase_word[ph],
                       clan_word[a], warrior_name[needs[ph]]);
    bool before_capture = ph == RTW_QWEEN_PICK || ph == RTW_DRUHID_PICK;
    bool needs_capture =
        ph == RTW_DRUHID_PICK || ph == RTW_SIGNAL_PICK || ph == RTW_TAX_PICK || ph == RTW_AXX_PICK;
    if (needs_capture && cap < 0)
        return rp_fail(err, RP_EINVAL, "capturer: phase %s needs one", phase_word[ph]);
    if (ph == RTW_QWEEN_PICK && cap != -1)
        return rp_fail(err, RP_EINVAL, "capturer: decided only after the Qween");
    if ((before_capture || cap < 0) != (s->captured == RTW_NONE))
        return rp_fail(err, RP_EINVAL, "captured: %s",
                       s->captured == RTW_NONE ? "the capturer's fort is missing"
                                               : "no fort was captured yet");
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
        return rp_fail(err, RP_EINVAL,
                       "phase signal: needs a captured Signal Fort and a face-up warrior");
    if (ph == RTW_TAX_PICK) {
        if (s->captured >= RTW_FORTS || s->cards.fort_kind[s->captured] != RTW_TAX ||
            !(s->forts[a] & (1u << s->captured)) || !tax_choices(s))
            return rp_fail(err, RP_EINVAL,
                           "phase tax: needs a captured Tax-Collector's Fort "
                           "and another fort to pay");
    }
    if (ph == RTW_AXX_PICK &&
        (!(s->up[a] & BIT(RTW_AXX)) || (s->keep & ~s->up[a]) || (s->keep & BIT(RTW_AXX))))
        return rp_fail(err, RP_EINVAL, "phase axx: the Axx must be face up and not yet kept");
    if (ph == RTW_HORSIE_PICK && !horsie_choices(s, a))
        return rp_fail(err, RP_EINVAL, "phase horsie: nothing to discard");
    return RP_OK;
}

/* The previous round's warriors: none in round 1, else six different ones per clan; rows of
 * clans not in the game are zero. */
static int check_prev(const rtw_state *s, rp_error *err)
{
    static const uint8_t zero[RTW_SLOTS];
    for (int c = 0; c < RTW_MAX_CLANS; c++) {
        if (c >= s->clans) {
            if (memcmp(s->slot[c], zero, RTW_SLOTS) || memcmp(s->prev[c], zero, RTW_SLOTS))
                return rp_fail(err, RP_EINVAL, "clan %s is not in this game", clan_word[c]);
            continue;
        }
        uint16_t seen = 0;
        for (int i = 0; i < RTW_SLOTS; i++) {
            int k = s->prev[c][i];
            bool ok = s->round == 0 ? k == RTW_NONE : k < RTW_KINDS && !(seen & BIT(k));
            if (!ok)
                return rp_fail(err, RP_EINVAL, "%s: last round's slot %d: %s", clan_word[c], i + 1,
                               s->round == 0 ? "round 1 has no last round"
                                             : "six different warriors are needed");
            if (k < RTW_KINDS)
                seen |= BIT(k);
        }
    }
    return RP_OK;
}

int rtw_check(const rtw_state *s, rp_error *err)
{
    if (s->players < 1 || s->players > RTW_MAX_CLANS || s->neutrals > 2 ||
        s->clans != s->players + s->neutrals || s->clans < 2 || s->clans > RTW_MAX_CLANS)
        return rp_fail(err, RP_EINVAL,
                       "players/neutrals: 1..4 players, 0..2 neutrals, 2..4 clans (RW-1)");
    if (s->variant > 1)
        return rp_fail(err, RP_EINVAL, "variant: standard or vogel");
    if (!(s->rng.inc & 1))
        return rp_fail(err, RP_EINVAL, "rng: the stream must be odd");
    if (s->round >= RTW_ROUNDS || s->turn >= RTW_SLOTS || s->phase >= RTW_PHASES)
        return rp_fail(err, RP_EINVAL, "round, turn or phase out of range");
    if (s->capturer < -1 || s->winner < -1 || s->winner >= s->clans)
        return rp_fail(err, RP_EINVAL, "capturer or winner out of range");
    int rc;
    if ((rc = check_cards(&s->cards, "cards", err)) < 0 || (rc = check_forts(s, err)) < 0 ||
        (rc = check_wall(s, err)) < 0 || (rc = check_prev(s, err)) < 0)
        return rc;
    if (s->phase != RTW_OVER && s->actor >= s->players)
        return rp_fail(err, RP_EINVAL, "actor: %d is not a player clan", s->actor);
    for (int c = 0; c < s->clans; c++) /* before the phase checks, which read the slots */
        if ((rc = check_clan(s, c, err)) < 0)
            return rc;
    return check_phase(s, err);
}

static int rtw_state_ok(const void *st, rp_error *err)
{
    return rtw_check(st, err);
}

/* ---- full-state notation (src/core/notation.h; the format: docs/games/rush-the-wall.md) ----
 * rw1 players=P neutrals=N variant=standard|vogel cards=default|S,../F,.. round=R turn=T
 *     phase=PH actor=CLAN|- next=SLOT|- capturer=CLAN|- captured=FORT|- keep=WARRIORS
 *     winner=CLAN|- deck=FORT,..(18) wall=FORT|-,..(6) gone=FORTS
 *     green=SLOTS/HAND/DRAWN/UP/FORTS/LAST red=... (one per clan) rng=<hex>.<hex>
 * Warriors are their move words (axx); forts their labels (dinary5), with a, b, c... after
 * the label where the card set has several alike (dinary1a, dinary1b), so each fort id has
 * one name. round, turn and next are 1-based. */

#define RTW_TAG "rw1"

/* The notation's name of every fort id of a card set. */
typedef struct fort_names {
    char text[RTW_FORTS][16];
    const char *name[RTW_FORTS];
} fort_names;

static void name_forts(const rtw_cards *c, fort_names *fn)
{
    for (int f = 0; f < RTW_FORTS; f++) {
        int alike = 0, before = 0;
        for (int g = 0; g < RTW_FORTS; g++)
            if (same_fort(c, f, g)) {
                alike++;
                before += g < f;
            }
        int len = fort_label(c, f, fn->text[f], sizeof fn->text[f] - 1);
        if (alike > 1 && len > 0) {
            fn->text[f][len] = (char)('a' + before);
            fn->text[f][len + 1] = '\0';
        }
        fn->name[f] = fn->text[f];
    }
}

/* names[i], or "?" for an index out of range: the writer prints any bytes (the debug check
 * prints broken states) without reading past a table. */
static const char *name_or(const char *const *names, int count, int i)
{
    return i >= 0 && i < count ? names[i] : "?";
}

/* A set (a mask) as the names of its members, in order; '-' when empty. */
static void put_set(rp_text *t, const char *const *names, int count, uint32_t mask)
{
    int n = 0;
    for (; mask; mask &= mask - 1) {
        rp__put_sep(t, &n, ',');
        rp__text_str(t, name_or(names, count, lowest_bit(mask)));
    }
    rp__put_list_end(t, n);
}

/* n items, each a name or '-' (RTW_NONE). */
static void put_row(rp_text *t, const char *const *names, int count, const uint8_t *items, int n)
{
    for (int i = 0; i < n; i++) {
        if (i)
            rp__text_ch(t, ',');
        rp__text_str(t, items[i] == RTW_NONE ? "-" : name_or(names, count, items[i]));
    }
}

/* " key=word", or " key=-" when index < 0. */
static void put_name(rp_text *t, const char *key, const char *const *names, int count, int index)
{
    rp__put_key(t, key);
    rp__text_str(t, index < 0 ? "-" : name_or(names, count, index));
}

static void put_number_field(rp_text *t, const char *key, uint64_t v)
{
    rp__put_key(t, key);
    rp__put_uint(t, v);
}

static void put_clan(rp_text *t, const rtw_state *s, const fort_names *fn, int c)
{
    rp__put_key(t, clan_word[c]);
    put_row(t, warrior_word, RTW_KINDS, s->slot[c], RTW_SLOTS);
    const uint32_t sets[4] = {s->hand[c], s->drawn[c], s->up[c], s->forts[c]};
    for (int i = 0; i < 4; i++) {
        rp__text_ch(t, '/');
        if (i == 3)
            put_set(t, fn->name, RTW_FORTS, sets[i]);
        else
            put_set(t, warrior_word, RTW_KINDS, sets[i]);
    }
    rp__text_ch(t, '/');
    if (s->round == 0)
        rp__text_ch(t, '-');
    else
        put_row(t, warrior_word, RTW_KINDS, s->prev[c], RTW_SLOTS);
}

static int rtw_state_to_text(const void *st, char *buf, size_t size)
{
    static const char *const variants[] = {"standard", "vogel"};
    const rtw_state *s = st;
    fort_names fn;
    name_forts(&s->cards, &fn);
    bool placing = s->phase == RTW_PLAN || s->phase == RTW_ZVORD_PLACE;
    rp_text t;
    rp__text_init(&t, buf, size);
    rp__put_tag(&t, RTW_TAG);
    put_number_field(&t, "players", s->players);
    put_number_field(&t, "neutrals", s->neutrals);
    put_name(&t, "variant", variants, 2, s->variant);
    rp__put_key(&t, "cards");
    put_cards_value(&t, &s->cards);
    put_number_field(&t, "round", s->round + 1u);
    put_number_field(&t, "turn", s->turn + 1u);
    put_name(&t, "phase", phase_word, RTW_PHASES, s->phase);
    put_name(&t, "actor", clan_word, RTW_MAX_CLANS, s->phase == RTW_OVER ? -1 : s->actor);
    if (placing)
        put_number_field(&t, "next", s->next_slot + 1u);
    else
        put_name(&t, "next", NULL, 0, -1);
    put_name(&t, "capturer", clan_word, RTW_MAX_CLANS, s->capturer);
    put_name(&t, "captured", fn.name, RTW_FORTS, s->captured == RTW_NONE ? -1 : s->captured);
    rp__put_key(&t, "keep");
    put_set(&t, warrior_word, RTW_KINDS, s->keep);
    put_name(&t, "winner", clan_word, RTW_MAX_CLANS, s->winner);
    rp__put_key(&t, "deck");
    put_row(&t, fn.name, RTW_FORTS, s->deck, RTW_FORTS);
    rp__put_key(&t, "wall");
    put_row(&t, fn.name, RTW_FORTS, s->wall, RTW_SLOTS);
    rp__put_key(&t, "gone");
    put_set(&t, fn.name, RTW_FORTS, s->gone);
    for (int c = 0; c < s->clans && c < RTW_MAX_CLANS; c++)
        put_clan(&t, s, &fn, c);
    rp__put_rng(&t, &s->rng);
    return rp__text_finish(&t);
}

/* A set of names, each once ('-': none), into a mask. */
static int read_set(rp_reader *r, const char *what, rp_span v, const char *const *names, int n,
                    uint32_t *out)
{
    rp_list list;
    rp_span item;
    uint32_t mask = 0;
    rp__list_begin(&list, v, ',');
    while (rp__list_next(&list, &item)) {
        int k, rc = rp__span_choice(r, what, item, names, n, &k);
        if (rc < 0)
            return rc;
        if (mask & (1u << k))
            return rp__read_fail(r, what, "%s is listed twice", names[k]);
        mask |= 1u << k;
    }
    *out = mask;
    return RP_OK;
}

static int read_warriors(rp_reader *r, const char *what, rp_span v, uint16_t *out)
{
    uint32_t mask;
    int rc = read_set(r, what, v, warrior_word, RTW_KINDS, &mask);
    *out = (uint16_t)mask;
    return rc;
}

/* Exactly n items, each one of names or '-' (RTW_NONE). */
static int read_row(rp_reader *r, const char *what, rp_span v, const char *const *names, int count,
                    uint8_t *items, int n)
{
    rp_list list;
    rp_span item;
    int i = 0;
    rp__list_begin(&list, v, ',');
    list.done = false; /* a lone '-' is one empty item here, not an empty list */
    while (rp__list_next(&list, &item)) {
        int k = -1;
        if (i == n)
            return rp__read_fail(r, what, "more than %d items", n);
        if (!rp__span_is(item, "-")) {
            int rc = rp__span_choice(r, what, item, names, count, &k);
            if (rc < 0)
                return rc;
        }
        items[i++] = k < 0 ? RTW_NONE : (uint8_t)k;
    }
    return i == n ? RP_OK : rp__read_fail(r, what, "%d items, expected %d", i, n);
}

/* The next field, one of names (or '-' as -1). */
static int read_name(rp_reader *r, const char *key, const char *const *names, int n, int *out)
{
    rp_span v;
    int rc = rp__read_field(r, key, &v);
    if (rc < 0)
        return rc;
    if (rp__span_is(v, "-")) {
        *out = -1;
        return RP_OK;
    }
    return rp__span_choice(r, key, v, names, n, out);
}

/* The next field, a whole number in [min, max] (or '-' as 0 when dash is allowed). */
static int read_number(rp_reader *r, const char *key, uint64_t min, uint64_t max, bool dash,
                       uint8_t *out)
{
    rp_span v;
    uint64_t n = 0;
    int rc = rp__read_field(r, key, &v);
    if (rc < 0)
        return rc;
    if (!(dash && rp__span_is(v, "-")) && (rc = rp__span_uint(r, key, v, min, max, &n)) < 0)
        return rc;
    *out = (uint8_t)n;
    return RP_OK;
}

/* SLOTS/HAND/DRAWN/UP/FORTS/LAST of clan c. */
static int read_clan(rp_reader *r, rtw_state *s, const fort_names *fn, int c)
{
    const char *key = clan_word[c];
    rp_span v, part[6];
    int rc = rp__read_field(r, key, &v);
    if (rc < 0)
        return rc;
    for (int i = 0; i < 5; i++)
        if (!rp__span_split(v, '/', &part[i], &v))
            return rp__read_fail(r, key, "expected SLOTS/HAND/DRAWN/UP/FORTS/LAST (six parts)");
    part[5] = v;
    memset(s->prev[c], RTW_NONE, RTW_SLOTS);
    if ((rc = read_row(r, key, part[0], warrior_word, RTW_KINDS, s->slot[c], RTW_SLOTS)) < 0 ||
        (rc = read_warriors(r, key, part[1], &s->hand[c])) < 0 ||
        (rc = read_warriors(r, key, part[2], &s->drawn[c])) < 0 ||
        (rc = read_warriors(r, key, part[3], &s->up[c])) < 0 ||
        (rc = read_set(r, key, part[4], fn->name, RTW_FORTS, &s->forts[c])) < 0)
        return rc;
    if (rp__span_is(part[5], "-"))
        return RP_OK;
    return read_row(r, key, part[5], warrior_word, RTW_KINDS, s->prev[c], RTW_SLOTS);
}

/* Everything up to the clans: options, progress, where the forts are. */
static int read_fields(rp_reader *r, rtw_state *s, fort_names *fn)
{
    static const char *const variants[] = {"standard", "vogel"};
    int variant, phase, actor, capturer, captured, winner, rc;
    rp_span v;
    if ((rc = read_number(r, "players", 1, RTW_MAX_CLANS, false, &s->players)) < 0 ||
        (rc = read_number(r, "neutrals", 0, 2, false, &s->neutrals)) < 0 ||
        (rc = read_name(r, "variant", variants, 2, &variant)) < 0 ||
        (rc = rp__read_field(r, "cards", &v)) < 0 ||
        (rc = read_cards_value(r, "cards", v, &s->cards)) < 0)
        return rc;
    name_forts(&s->cards, fn);
    if ((rc = read_number(r, "round", 1, RTW_ROUNDS, false, &s->round)) < 0 ||
        (rc = read_number(r, "turn", 1, RTW_SLOTS, false, &s->turn)) < 0 ||
        (rc = read_name(r, "phase", phase_word, RTW_PHASES, &phase)) < 0 ||
        (rc = read_name(r, "actor", clan_word, RTW_MAX_CLANS, &actor)) < 0 ||
        (rc = read_number(r, "next", 1, RTW_SLOTS, true, &s->next_slot)) < 0 ||
        (rc = read_name(r, "capturer", clan_word, RTW_MAX_CLANS, &capturer)) < 0 ||
        (rc = read_name(r, "captured", fn->name, RTW_FORTS, &captured)) < 0 ||
        (rc = rp__read_field(r, "keep", &v)) < 0 ||
        (rc = read_warriors(r, "keep", v, &s->keep)) < 0 ||
        (rc = read_name(r, "winner", clan_word, RTW_MAX_CLANS, &winner)) < 0 ||
        (rc = rp__read_field(r, "deck", &v)) < 0 ||
        (rc = read_row(r, "deck", v, fn->name, RTW_FORTS, s->deck, RTW_FORTS)) < 0 ||
        (rc = rp__read_field(r, "wall", &v)) < 0 ||
        (rc = read_row(r, "wall", v, fn->name, RTW_FORTS, s->wall, RTW_SLOTS)) < 0 ||
        (rc = rp__read_field(r, "gone", &v)) < 0 ||
        (rc = read_set(r, "gone", v, fn->name, RTW_FORTS, &s->gone)) < 0)
        return rc;
    s->clans = (uint8_t)(s->players + s->neutrals);
    s->variant = (uint8_t)variant;
    s->round--;
    s->turn--;
    s->next_slot = s->next_slot ? (uint8_t)(s->next_slot - 1) : 0;
    s->phase = (uint8_t)phase;
    s->actor = (uint8_t)(actor < 0 ? 0 : actor);
    s->capturer = (int8_t)capturer;
    s->captured = captured < 0 ? RTW_NONE : (uint8_t)captured;
    s->winner = (int8_t)winner;
    return RP_OK;
}

static int rtw_state_from_text(void *st, const char *text, rp_error *err)
{
    rp_reader r;
    rtw_state s;
    fort_names fn;
    memset(&s, 0, sizeof s);
    int rc = rp__read_begin(&r, text, RTW_TAG, err);
    if (rc < 0 || (rc = read_fields(&r, &s, &fn)) < 0)
        return rc;
    if (s.clans < 2 || s.clans > RTW_MAX_CLANS)
        return rp__read_fail(&r, "neutrals", "players + neutrals must be 2..4 clans (RW-1)");
    for (int c = 0; c < s.clans; c++)
        if ((rc = read_clan(&r, &s, &fn, c)) < 0)
            return rc;
    if ((rc = rp__read_rng(&r, &s.rng)) < 0 || (rc = rp__read_end(&r)) < 0 ||
        (rc = rtw_check(&s, err)) < 0 || (rc = rp__read_canonical(&r, &rp_rush_the_wall, &s)) < 0)
        return rc;
    memcpy(st, &s, sizeof s);
    return RP_OK;
}

/* ---- views: plain data for one viewer (a seat, or RP_SPECTATOR) ---- */

static bool sees_own(int viewer, int clan)
{
    return viewer >= 0 && viewer == clan;
}

/* Keys are literals and many values static words, added by reference (no copies). */
static void put_word(cJSON *o, const char *key, const char *word)
{
    cJSON_AddItemToObjectCS(o, key, cJSON_CreateStringReference(word));
}

static void put_bool(cJSON *o, const char *key, bool value)
{
    cJSON_AddItemToObjectCS(o, key, cJSON_CreateBool(value));
}

static void put_null(cJSON *o, const char *key)
{
    cJSON_AddItemToObjectCS(o, key, cJSON_CreateNull());
}

static void put_clan_or_null(cJSON *o, const char *key, int clan)
{
    if (clan >= 0)
        put_word(o, key, clan_word[clan]);
    else
        put_null(o, key);
}

static cJSON *warrior_array(uint32_t mask)
{
    cJSON *a = cJSON_CreateArray();
    for (; mask; mask &= mask - 1)
        cJSON_AddItemToArray(a, cJSON_CreateStringReference(warrior_word[lowest_bit(mask)]));
    return a;
}

static void put_warriors(cJSON *o, const char *key, uint32_t mask)
{
    cJSON_AddItemToObjectCS(o, key, warrior_array(mask));
}

static cJSON *fort_array(const rtw_cards *c, uint32_t mask)
{
    char label[32];
    cJSON *a = cJSON_CreateArray();
    for (; mask; mask &= mask - 1) {
        fort_label(c, lowest_bit(mask), label, sizeof label);
        cJSON_AddItemToArray(a, cJSON_CreateString(label));
    }
    return a;
}

static void put_forts(cJSON *o, const char *key, const rtw_cards *c, uint32_t mask)
{
    cJSON_AddItemToObjectCS(o, key, fort_array(c, mask));
}

/* The card set, flagged as assumptions (RW-2, RW-3): strengths keyed by warrior (keys, so the
 * table never shows a warrior as if it were placed somewhere), and the 18 forts. */
static cJSON *cards_json(const rtw_cards *c)
{
    cJSON *cards = cJSON_CreateObject(), *strengths = cJSON_CreateObject();
    put_bool(cards, "assumed", true);
    for (int k = 0; k < RTW_KINDS; k++)
        put_number(strengths, warrior_word[k], c->strength[k]);
    cJSON_AddItemToObjectCS(cards, "strengths", strengths);
    put_forts(cards, "forts", c, ALL_FORTS);
    return cards;
}

/* A clan's placed slots, left to right: its warrior where the viewer may see it (turned up,
 * or the viewer's own), null where it lies hidden. Empty slots are not listed. */
static cJSON *slots_json(const rtw_state *s, int c, int viewer)
{
    cJSON *a = cJSON_CreateArray();
    int shown = shown_slots(s);
    for (int i = 0; i < RTW_SLOTS && s->slot[c][i] != RTW_NONE; i++) {
        if (i < shown || sees_own(viewer, c))
            cJSON_AddItemToArray(a, cJSON_CreateStringReference(warrior_word[s->slot[c][i]]));
        else
            cJSON_AddItemToArray(a, cJSON_CreateNull());
    }
    return a;
}

static cJSON *clan_json(const rtw_state *s, int c, int viewer)
{
    cJSON *o = cJSON_CreateObject();
    put_word(o, "clan", clan_word[c]);
    if (is_player(s, c))
        put_number(o, "seat", c);
    else
        put_null(o, "seat");
    put_bool(o, "neutral", !is_player(s, c));
    put_forts(o, "forts", &s->cards, s->forts[c]);
    put_number(o, "points", fort_total(s, c));
    put_warriors(o, "face_up", s->up[c]);
    cJSON_AddItemToObjectCS(o, "slots", slots_json(s, c, viewer));
    put_number(o, "revealed", shown_slots(s));
    if (sees_own(viewer, c)) {
        put_warriors(o, "hand", s->hand[c]);
        put_warriors(o, "drawn", s->drawn[c]);
    }
    put_number(o, "hand_size", popcount(s->hand[c]));
    cJSON *last = cJSON_CreateArray();
    for (int i = 0; s->round > 0 && i < RTW_SLOTS; i++)
        cJSON_AddItemToArray(last, cJSON_CreateStringReference(warrior_word[s->prev[c][i]]));
    cJSON_AddItemToObjectCS(o, "last_round", last);
    return o;
}

static cJSON *rtw_view_json(const void *st, int viewer)
{
    const rtw_state *s = st;
    bool over = s->phase == RTW_OVER;
    cJSON *v = cJSON_CreateObject();
    put_word(v, "game", "rush-the-wall");
    put_word(v, "viewer", viewer >= 0 && viewer < s->players ? clan_word[viewer] : "spectator");
    if (viewer >= 0)
        put_number(v, "seat", viewer);
    else
        put_null(v, "seat");
    put_word(v, "variant", s->variant ? "vogel" : "standard");
    put_number(v, "players", s->players);
    put_number(v, "neutrals", s->neutrals);
    put_number(v, "round", s->round + 1);
    put_number(v, "turn", s->turn + 1);
    put_word(v, "phase", phase_word[s->phase]);
    put_clan_or_null(v, "to_act", over ? -1 : s->actor);
    if (s->phase == RTW_PLAN || s->phase == RTW_ZVORD_PLACE)
        put_number(v, "next_slot", s->next_slot + 1);
    else
        put_null(v, "next_slot");
    cJSON_AddItemToObjectCS(v, "cards", cards_json(&s->cards));
    cJSON *wall = cJSON_CreateArray();
    char label[32];
    for (int i = 0; i < RTW_SLOTS; i++) {
        if (s->wall[i] == RTW_NONE) {
            cJSON_AddItemToArray(wall, cJSON_CreateNull());
            continue;
        }
        fort_label(&s->cards, s->wall[i], label, sizeof label);
        cJSON_AddItemToArray(wall, cJSON_CreateString(label));
    }
    cJSON_AddItemToObjectCS(v, "wall", wall);
    if (s->phase == RTW_PLAN || over)
        put_null(v, "current");
    else
        put_number(v, "current", s->turn + 1);
    put_number(v, "forts_left", RTW_FORTS - RTW_SLOTS * (s->round + 1));
    put_forts(v, "discarded_forts", &s->cards, s->gone);
    put_clan_or_null(v, "capturer", s->capturer);
    put_fort(v, "captured", &s->cards, s->captured);
    put_warriors(v, "kept", s->keep);
    cJSON *clans = cJSON_CreateArray();
    for (int c = 0; c < s->clans; c++)
        cJSON_AddItemToArray(clans, clan_json(s, c, viewer));
    cJSON_AddItemToObjectCS(v, "clans", clans);
    put_bool(v, "over", over);
    if (over) {
        cJSON *win = cJSON_CreateArray();
        for (uint32_t m = winners(s); m; m &= m - 1)
            cJSON_AddItemToArray(win, cJSON_CreateStringReference(clan_word[lowest_bit(m)]));
        cJSON_AddItemToObjectCS(v, "winners", win);
        put_bool(v, "legion_win", s->winner >= 0);
    }
    return v;
}

/* The warriors `viewer` sees named somewhere in their view: turned-up slots and last round's
 * of every clan, face-up and kept ones, and everything of their own clan. */
static uint16_t warriors_seen(const rtw_state *s, int viewer)
{
    uint16_t seen = s->keep;
    int shown = shown_slots(s);
    for (int c = 0; c < s->clans; c++) {
        seen |= s->up[c];
        for (int i = 0; i < RTW_SLOTS; i++) {
            if (s->round > 0)
                seen |= BIT(s->prev[c][i]);
            if (s->slot[c][i] != RTW_NONE && (i < shown || sees_own(viewer, c)))
                seen |= BIT(s->slot[c][i]);
        }
        if (sees_own(viewer, c))
            seen |= (uint16_t)(s->hand[c] | s->drawn[c]);
    }
    return seen;
}

/* Warriors hidden from `viewer` (other clans' face-down slots, hands and drawn sevens) that
 * their view names nowhere. Forts are never secret: the card set is public and every fort
 * drawn is face up; only the order of the undrawn ones is hidden. */
static int rtw_secret_names(const void *st, int viewer, char *buf, size_t size)
{
    const rtw_state *s = st;
    uint16_t hidden = 0;
    for (int c = 0; c < s->clans; c++)
        if (!sees_own(viewer, c))
            hidden |= s->drawn[c];
    hidden &= (uint16_t)~warriors_seen(s, viewer);
    rp_text t;
    rp__text_init(&t, buf, size);
    for (int n = 0; hidden; hidden &= (uint16_t)(hidden - 1)) {
        rp__put_sep(&t, &n, ' ');
        rp__text_str(&t, warrior_word[lowest_bit(hidden)]);
    }
    return rp__text_finish(&t);
}

/* ---- events: the notes of one action, told to one viewer ---- */

typedef struct teller {
    const rtw_state *s; /* the state after the action (for the card set and the final score) */
    int viewer;
    cJSON *events;
} teller;

static const char *const kind_word[] = {[N_PLACE] = "place",
                                        [N_LAST_PLACE] = "place",
                                        [N_SET_ASIDE] = "set-aside",
                                        [N_ATTACK] = "attack",
                                        [N_REVEAL] = "reveal",
                                        [N_WRECK] = "wreck",
                                        [N_QWEENS_CANCEL] = "qween",
                                        [N_QWEEN_NEUTRAL] = "qween",
                                        [N_QWEEN_ALONE] = "qween",
                                        [N_CHARM] = "charm",
                                        [N_TOTALS] = "totals",
                                        [N_CAPTURE] = "capture",
                                        [N_NO_CAPTURE] = "no-capture",
                                        [N_TAKE] = "druhid",
                                        [N_UNWARY] = "unwary",
                                        [N_SIGNAL_FORT] = "signal",
                                        [N_SIGNAL] = "signal",
                                        [N_TAX] = "tax",
                                        [N_LEGION] = "legion",
                                        [N_AXX] = "axx",
                                        [N_DISCARD] = "discard",
                                        [N_HORSIE] = "horsie",
                                        [N_ZVORD] = "zvord",
                                        [N_ROUND_END] = "round-end",
                                        [N_ROUND] = "round",
                                        [N_DRAW] = "draw",
                                        [N_NEUTRAL_PLAN] = "neutral-plan",
                                        [N_GAME_OVER] = "game-over",
                                        [N_TO_ACT] = "turn"};

/* One event about note n's clan (its seat when it is a player clan), with "clan" added. */
static cJSON *event(teller *tl, const rtw_note *n, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static cJSON *event(teller *tl, const rtw_note *n, const char *fmt, ...)
{
    char text[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    int seat = is_player(tl->s, n->clan) ? n->clan : -1;
    cJSON *e = rp__event(tl->events, kind_word[n->kind], seat, "%s", text);
    if (e && n->clan >= 0)
        put_word(e, "clan", clan_word[n->clan]);
    return e;
}

/* "cards": the warriors of mask, which the viewer may see. */
static void event_cards(cJSON *e, uint32_t mask)
{
    if (e)
        cJSON_AddItemToObjectCS(e, "cards", warrior_array(mask));
}

static void event_fort(cJSON *e, const char *key, const rtw_cards *c, int f)
{
    if (e && f != RTW_NONE)
        put_fort(e, key, c, f);
}

/* Clan names joined for a sentence: "Green", "Green and Red", "Green, Red and Gold". */
static void clan_list(rp_text *t, uint32_t mask)
{
    int total = popcount(mask), i = 0;
    for (; mask; mask &= mask - 1, i++) {
        rp__text_str(t, i == 0 ? "" : i == total - 1 ? " and " : ", ");
        rp__text_str(t, clan_name[lowest_bit(mask)]);
    }
}

/* "Green (neutral)" for neutral clans, "Green" for player clans. */
static const char *who(const rtw_state *s, int c, char *buf, size_t size)
{
    snprintf(buf, size, "%s%s", clan_name[c], is_player(s, c) ? "" : " (neutral)");
    return buf;
}

static void tell_place(teller *tl, const rtw_note *n)
{
    char w[32];
    bool own = sees_own(tl->viewer, n->clan);
    warrior_text(tl->s, n->warrior, w, sizeof w);
    cJSON *e;
    if (n->kind == N_LAST_PLACE)
        e = own ? event(tl, n, "%s's last hidden warrior, %s, goes face down to slot %d.",
                        clan_name[n->clan], w, n->pos + 1)
                : event(tl, n, "%s's last hidden warrior goes face down to slot %d.",
                        clan_name[n->clan], n->pos + 1);
    else
        e = own ? event(tl, n, "%s places %s face down at slot %d%s.", clan_name[n->clan], w,
                        n->pos + 1, n->flag ? " (placing again after Zvord)" : "")
                : event(tl, n, "%s places a warrior face down at slot %d%s.", clan_name[n->clan],
                        n->pos + 1, n->flag ? " (placing again after Zvord)" : "");
    if (e)
        put_number(e, "slot", n->pos + 1);
    if (own)
        event_cards(e, BIT(n->warrior));
}

static void tell_set_aside(teller *tl, const rtw_note *n)
{
    char w[32];
    if (!sees_own(tl->viewer, n->clan)) {
        event(tl, n, "%s has placed six warriors and sets its seventh aside.", clan_name[n->clan]);
        return;
    }
    warrior_text(tl->s, n->warrior, w, sizeof w);
    event_cards(
        event(tl, n, "%s has placed six warriors and sets %s aside.", clan_name[n->clan], w),
        BIT(n->warrior));
}

static void tell_attack(teller *tl, const rtw_note *n)
{
    char f[48];
    fort_text(&tl->s->cards, n->fort, f, sizeof f);
    cJSON *e = event(tl, n, "Round %d, turn %d: the clans attack %s at position %d.", n->round + 1,
                     n->turn + 1, f, n->pos + 1);
    event_fort(e, "fort", &tl->s->cards, n->fort);
    if (e)
        put_number(e, "position", n->pos + 1);
}

static void tell_reveal(teller *tl, const rtw_note *n)
{
    char w[32], c[32];
    warrior_text(tl->s, n->warrior, w, sizeof w);
    cJSON *e =
        event(tl, n, "%s turns up %s at slot %d.", who(tl->s, n->clan, c, sizeof c), w, n->pos + 1);
    rp__event_reveal(e);
    event_cards(e, BIT(n->warrior));
    if (e)
        put_number(e, "slot", n->pos + 1);
}

static void tell_qween(teller *tl, const rtw_note *n)
{
    char text[160];
    rp_text t;
    rp__text_init(&t, text, sizeof text);
    cJSON *e;
    switch (n->kind) {
    case N_WRECK:
        clan_list(&t, n->mask);
        e = event(tl, n, "%s's Ch'ariotts collide: all are discarded before points are counted.",
                  text);
        event_cards(e, BIT(RTW_CHARIOTT));
        return;
    case N_QWEENS_CANCEL:
        clan_list(&t, n->mask);
        e = event(tl, n,
                  "%s revealed Qweens: their powers cancel and each counts her own strength.",
                  text);
        break;
    case N_QWEEN_NEUTRAL:
        e = event(tl, n,
                  "%s's Qween has no power, %s being a neutral clan (RW-11): she counts "
                  "her own strength.",
                  clan_name[n->clan], clan_name[n->clan]);
        break;
    default:
        e = event(tl, n, "%s's Qween finds no rival warrior to charm and counts her own strength.",
                  clan_name[n->clan]);
        break;
    }
    event_cards(e, BIT(RTW_QWEEN));
}

static void tell_charm(teller *tl, const rtw_note *n)
{
    char w[32];
    warrior_text(tl->s, n->warrior, w, sizeof w);
    cJSON *e = event(tl, n,
                     "%s's Qween charms %s's %s: she counts %d for %s and it counts 0 "
                     "for %s this turn.",
                     clan_name[n->clan], clan_name[n->other], w, tl->s->cards.strength[n->warrior],
                     clan_name[n->clan], clan_name[n->other]);
    event_cards(e, BIT(RTW_QWEEN) | BIT(n->warrior));
    if (e)
        put_word(e, "target", clan_word[n->other]);
}

static void tell_totals(teller *tl, const rtw_note *n)
{
    char text[256];
    rp_text t;
    rp__text_init(&t, text, sizeof text);
    cJSON *totals = cJSON_CreateObject();
    for (int c = 0; c < tl->s->clans; c++) {
        rp__text_put(&t, "%s%s %d%s", c ? ", " : "", clan_name[c], n->value[c],
                     n->mask & BIT(c) ? " (Filchy: cannot capture)" : "");
        put_number(totals, clan_word[c], n->value[c]);
    }
    cJSON *e = event(tl, n, "Totals: %s.", text);
    if (!e) {
        cJSON_Delete(totals);
        return;
    }
    cJSON_AddItemToObjectCS(e, "totals", totals);
    cJSON *out = cJSON_CreateArray();
    for (uint32_t m = n->mask; m; m &= m - 1)
        cJSON_AddItemToArray(out, cJSON_CreateStringReference(clan_word[lowest_bit(m)]));
    cJSON_AddItemToObjectCS(e, "filchy", out);
}

static void tell_capture(teller *tl, const rtw_note *n)
{
    char f[48], tied[96];
    fort_text(&tl->s->cards, n->fort, f, sizeof f);
    rp_text t;
    rp__text_init(&t, tied, sizeof tied);
    clan_list(&t, n->mask);
    cJSON *e;
    if (n->mask)
        e = event(tl, n,
                  "%s tie at %d; %s revealed an Arch'r this turn and wins the tie: %s captures %s.",
                  tied, n->value[0], clan_name[n->clan], clan_name[n->clan], f);
    else
        e = event(tl, n, "%s has the highest total, %d, and captures %s.", clan_name[n->clan],
                  n->value[0], f);
    event_fort(e, "fort", &tl->s->cards, n->fort);
}

static void tell_no_capture(teller *tl, const rtw_note *n)
{
    char f[48], f2[48], why[128];
    const rtw_cards *c = &tl->s->cards;
    fort_text(c, n->fort, f, sizeof f);
    fort_text(c, n->fort2, f2, sizeof f2);
    rp_text t;
    rp__text_init(&t, why, sizeof why);
    if (!n->mask) {
        rp__text_str(&t, "Every clan revealed Filchy: nobody can capture");
    } else {
        clan_list(&t, n->mask);
        rp__text_put(&t, " tie at %d", n->value[0]);
        rp__text_str(&t, n->pos > 1 ? " and more than one of them revealed an Arch'r: the tie "
                                      "remains, nobody captures"
                                    : ": nobody captures");
    }
    cJSON *e;
    if (!n->flag)
        e = event(tl, n, "%s; %s is discarded and every warrior stays face up.", why, f);
    else if (n->turn == RTW_SLOTS - 1)
        e = event(tl, n, "%s; %s, the last fort of The Wall, is discarded (Vogel variant).", why,
                  f);
    else
        e = event(tl, n,
                  "%s; %s stays in The Wall for the next turn, %s at the right end is "
                  "discarded and the forts between slide one place right (Vogel variant).",
                  why, f, f2);
    event_fort(e, "fort", c, n->fort);
    if (e && n->flag && n->turn < RTW_SLOTS - 1)
        put_fort(e, "discarded", c, n->fort2);
}

static void tell_take(teller *tl, const rtw_note *n)
{
    char f[48], f2[48];
    const rtw_cards *c = &tl->s->cards;
    fort_text(c, n->fort, f, sizeof f);
    fort_text(c, n->fort2, f2, sizeof f2);
    cJSON *e;
    if (n->fort == n->fort2)
        e = event(tl, n, "%s's Dru'hid keeps %s, the fort fought over.", clan_name[n->clan], f);
    else if (n->flag)
        e = event(tl, n,
                  "%s's Dru'hid takes %s from position %d instead; the forts to its left "
                  "slide one place right (Vogel variant).",
                  clan_name[n->clan], f, n->pos + 1);
    else
        e = event(tl, n, "%s's Dru'hid takes %s from position %d instead; %s takes its place.",
                  clan_name[n->clan], f, n->pos + 1, f2);
    event_fort(e, "fort", c, n->fort);
    if (e)
        put_number(e, "position", n->pos + 1);
}

/* Unwary, Signal, Horsie and Axx: one warrior kept or discarded. */
static void tell_warrior_effect(teller *tl, const rtw_note *n)
{
    char w[32], c[32];
    const char *name = who(tl->s, n->clan, c, sizeof c);
    if (n->warrior != RTW_NONE)
        warrior_text(tl->s, n->warrior, w, sizeof w);
    cJSON *e = NULL;
    switch (n->kind) {
    case N_UNWARY:
        if (n->warrior == RTW_NONE)
            e = event(tl, n, "Unwary Fort: %s has no face-up warrior to keep.", name);
        else
            e = event(tl, n, "Unwary Fort: %s keeps its weakest face-up warrior, %s.", name, w);
        break;
    case N_SIGNAL:
        e = event(tl, n, "Signal Fort: %s discards %s.", name, w);
        break;
    case N_AXX:
        e = event(tl, n,
                  n->flag ? "%s keeps its Axx face up."
                          : "%s drops its Axx with the other face-up warriors.",
                  name);
        event_cards(e, BIT(RTW_AXX));
        return;
    default: /* N_HORSIE */
        if (n->warrior == RTW_NONE)
            e = event(tl, n,
                      "%s's Horsie lost the turn, but %s has no face-up warrior left to "
                      "discard (RW-20).",
                      name, clan_name[n->clan]);
        else if (n->warrior == RTW_HORSIE)
            e = event(tl, n,
                      "%s's Horsie lost the turn and no other warrior is face up: she "
                      "discards herself, %s.",
                      name, w);
        else
            e = event(tl, n, "%s's Horsie lost the turn: %s discards %s.", name, clan_name[n->clan],
                      w);
        break;
    }
    if (n->warrior != RTW_NONE)
        event_cards(e, BIT(n->warrior));
}

static void tell_discard(teller *tl, const rtw_note *n)
{
    char gone[160], kept[96], c[32];
    rp_text t;
    rp__text_init(&t, gone, sizeof gone);
    list_warriors(&t, tl->s, n->mask);
    rp__text_init(&t, kept, sizeof kept);
    list_warriors(&t, tl->s, n->mask2);
    const char *name = who(tl->s, n->clan, c, sizeof c);
    cJSON *e;
    if (!n->mask)
        e = event(tl, n, "%s keeps %s face up; no other warrior to discard.", name, kept);
    else if (n->mask2)
        e = event(tl, n, "%s discards its face-up warriors (%s) and keeps %s.", name, gone, kept);
    else
        e = event(tl, n, "%s discards its face-up warriors: %s.", name, gone);
    event_cards(e, (uint32_t)n->mask | n->mask2);
}

static void tell_tax(teller *tl, const rtw_note *n)
{
    char f[48];
    fort_text(&tl->s->cards, n->fort, f, sizeof f);
    cJSON *e = n->fort == n->fort2
                   ? event(tl, n,
                           "Tax-Collector's Fort: %s holds no other fort and discards "
                           "the Tax-Collector's Fort itself.",
                           clan_name[n->clan])
                   : event(tl, n, "Tax-Collector's Fort: %s pays %s.", clan_name[n->clan], f);
    event_fort(e, "fort", &tl->s->cards, n->fort);
}

static void tell_round(teller *tl, const rtw_note *n)
{
    char text[256], f[48];
    rp_text t;
    rp__text_init(&t, text, sizeof text);
    cJSON *wall = cJSON_CreateArray();
    char label[32];
    for (int i = 0; i < RTW_SLOTS; i++) {
        fort_text(&tl->s->cards, n->wall[i], f, sizeof f);
        rp__text_put(&t, "%s%s", i ? ", " : "", f);
        fort_label(&tl->s->cards, n->wall[i], label, sizeof label);
        cJSON_AddItemToArray(wall, cJSON_CreateString(label));
    }
    cJSON *e = event(tl, n, "Round %d: six forts are drawn; The Wall, left to right, is %s.",
                     n->round + 1, text);
    rp__event_reveal(e);
    if (e)
        cJSON_AddItemToObjectCS(e, "wall", wall);
    else
        cJSON_Delete(wall);
}

static void tell_draw(teller *tl, const rtw_note *n)
{
    char text[160];
    rp_text t;
    rp__text_init(&t, text, sizeof text);
    cJSON *e;
    if (sees_own(tl->viewer, n->clan)) {
        list_warriors(&t, tl->s, n->mask);
        e = event(tl, n, "%s shuffles its nine warriors and draws seven: %s.", clan_name[n->clan],
                  text);
        event_cards(e, n->mask);
    } else {
        e = event(tl, n, "%s shuffles its nine warriors and draws seven.", clan_name[n->clan]);
    }
    rp__event_reveal(e);
}

/* RW-12, RTW-P6 in one sentence: who won, and the numbers that decided it. */
static void score_sentence(const rtw_state *s, rp_text *t)
{
    uint32_t win = winners(s);
    int w = lowest_bit(win), runner = -1;
    if (s->winner >= 0) {
        rp__text_put(t, "%s captured a third Legion fort and wins at once (RW-18)", clan_name[w]);
        return;
    }
    if (popcount(win) > 1) {
        clan_list(t, win);
        rp__text_put(t, " share the win: %d points, %d forts and a highest fort of %d each",
                     fort_total(s, w), popcount(s->forts[w]), highest_fort(s, w));
        return;
    }
    for (int c = 0; c < s->players; c++)
        if (c != w && (runner < 0 || compare_clans(s, c, runner) > 0))
            runner = c;
    if (runner < 0) {
        rp__text_put(t, "%s finishes with %d points (neutral clans cannot win)", clan_name[w],
                     fort_total(s, w));
        return;
    }
    int tw = fort_total(s, w), tr = fort_total(s, runner);
    int nw = popcount(s->forts[w]), nr = popcount(s->forts[runner]);
    if (tw != tr)
        rp__text_put(t, "%s wins with %d points to %s's %d", clan_name[w], tw, clan_name[runner],
                     tr);
    else if (nw != nr)
        rp__text_put(t, "%s and %s tie at %d points; %s wins the tie on forts, %d to %d",
                     clan_name[w], clan_name[runner], tw, clan_name[w], nw, nr);
    else
        rp__text_put(t,
                     "%s and %s tie at %d points and %d forts; %s wins on the highest fort, "
                     "%d to %d",
                     clan_name[w], clan_name[runner], tw, nw, clan_name[w], highest_fort(s, w),
                     highest_fort(s, runner));
}

static void tell_game_over(teller *tl, const rtw_note *n)
{
    char text[256];
    rp_text t;
    rp__text_init(&t, text, sizeof text);
    score_sentence(tl->s, &t);
    cJSON *e = event(tl, n, "Game over: %s.", text);
    if (!e)
        return;
    cJSON *win = cJSON_CreateArray(), *points = cJSON_CreateObject();
    for (uint32_t m = winners(tl->s); m; m &= m - 1)
        cJSON_AddItemToArray(win, cJSON_CreateStringReference(clan_word[lowest_bit(m)]));
    for (int c = 0; c < tl->s->clans; c++)
        put_number(points, clan_word[c], fort_total(tl->s, c));
    cJSON_AddItemToObjectCS(e, "winners", win);
    cJSON_AddItemToObjectCS(e, "points", points);
    put_word(e, "reason", tl->s->winner >= 0 ? "legions" : "rounds");
}

static void tell_round_end(teller *tl, const rtw_note *n)
{
    char text[160];
    rp_text t;
    rp__text_init(&t, text, sizeof text);
    cJSON *points = cJSON_CreateObject();
    for (int c = 0; c < tl->s->clans; c++) {
        rp__text_put(&t, "%s%s %d", c ? ", " : "", clan_name[c], n->value[c]);
        put_number(points, clan_word[c], n->value[c]);
    }
    cJSON *e = event(tl, n, "Round %d ends: every warrior returns to its clan. Fort points: %s.",
                     n->round + 1, text);
    if (e)
        cJSON_AddItemToObjectCS(e, "points", points);
    else
        cJSON_Delete(points);
}

/* Who decides next, and what. */
static void tell_to_act(teller *tl, const rtw_note *n)
{
    const rtw_state *s = tl->s;
    static const char *const what[RTW_PHASES] = {"place six warriors face down",
                                                 "place its hidden warriors again (Zvord)",
                                                 "pick the rival warrior its Qween charms",
                                                 "pick the fort its Dru'hid takes",
                                                 "discard a face-up warrior (Signal Fort)",
                                                 "pay one of its forts (Tax-Collector's)",
                                                 "keep its Axx face up or drop it",
                                                 "discard a face-up warrior (Horsie)",
                                                 ""};
    cJSON *e = event(tl, n, "%s to act: %s.", clan_name[n->clan], what[s->phase]);
    if (e)
        put_word(e, "phase", phase_word[s->phase]);
}

static void tell_note(teller *tl, const rtw_note *n)
{
    char c[32];
    switch (n->kind) {
    case N_PLACE:
    case N_LAST_PLACE:
        tell_place(tl, n);
        break;
    case N_SET_ASIDE:
        tell_set_aside(tl, n);
        break;
    case N_ATTACK:
        tell_attack(tl, n);
        break;
    case N_REVEAL:
        tell_reveal(tl, n);
        break;
    case N_WRECK:
    case N_QWEENS_CANCEL:
    case N_QWEEN_NEUTRAL:
    case N_QWEEN_ALONE:
        tell_qween(tl, n);
        break;
    case N_CHARM:
        tell_charm(tl, n);
        break;
    case N_TOTALS:
        tell_totals(tl, n);
        break;
    case N_CAPTURE:
        tell_capture(tl, n);
        break;
    case N_NO_CAPTURE:
        tell_no_capture(tl, n);
        break;
    case N_TAKE:
        tell_take(tl, n);
        break;
    case N_UNWARY:
    case N_SIGNAL:
    case N_AXX:
    case N_HORSIE:
        tell_warrior_effect(tl, n);
        break;
    case N_SIGNAL_FORT:
        event(tl, n, "Signal Fort: every clan with a face-up warrior discards one, %s first.",
              clan_name[n->clan]);
        break;
    case N_TAX:
        tell_tax(tl, n);
        break;
    case N_LEGION:
        event(tl, n,
              n->flag ? "%s holds three Legion forts, but a neutral clan cannot win; "
                        "play goes on (RW-18)."
                      : "%s holds three Legion forts and wins at once (RW-18).",
              who(tl->s, n->clan, c, sizeof c));
        break;
    case N_DISCARD:
        tell_discard(tl, n);
        break;
    case N_ZVORD:
        event(tl, n, "%s's Zvord: %s takes back its %d hidden warriors to place them again.",
              clan_name[n->clan], clan_name[n->clan], n->pos);
        break;
    case N_ROUND_END:
        tell_round_end(tl, n);
        break;
    case N_ROUND:
        tell_round(tl, n);
        break;
    case N_DRAW:
        tell_draw(tl, n);
        break;
    case N_NEUTRAL_PLAN:
        event(tl, n, "%s lays six of its warriors face down at random.",
              who(tl->s, n->clan, c, sizeof c));
        break;
    case N_GAME_OVER:
        tell_game_over(tl, n);
        break;
    default:
        tell_to_act(tl, n);
        break;
    }
}

/* The action was one placement among several by the same clan: nothing else to say. */
static bool same_decision(const rtw_state *before, const rtw_state *after)
{
    return after->phase == before->phase && after->actor == before->actor &&
           after->round == before->round && after->turn == before->turn &&
           (after->phase == RTW_PLAN || after->phase == RTW_ZVORD_PLACE);
}

static cJSON *rtw_events_json(const void *before, rp_action action, int viewer)
{
    rtw_state s = *(const rtw_state *)before;
    rtw_tell *t = malloc(sizeof *t);
    cJSON *events = cJSON_CreateArray();
    if (!t || !events) {
        free(t);
        cJSON_Delete(events);
        return NULL;
    }
    t->n = 0;
    apply_told(&s, t, action);
    if (s.phase != RTW_OVER && !same_decision(before, &s))
        say(t, &s, N_TO_ACT, s.actor);
    teller tl = {&s, viewer, events};
    for (int i = 0; i < t->n; i++)
        tell_note(&tl, &t->note[i]);
    free(t);
    return events;
}

/* ---- the AI hooks: determinize, observe_action, evaluate ---- */

/* Resample one other clan's unseen warriors: its hidden slots, its hand, and which of the
 * rest it drew, from the kinds not turned up this round. */
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

static void rtw_determinize(void *st, int viewer, rp_rng *rng)
{
    rtw_state *s = st;
    for (int c = 0; c < s->clans; c++) /* the spectator (RP_SPECTATOR) sees no clan's own */
        if (c != viewer)
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

/* ---- terminal rendering: what view_json shows, for people ---- */

static const char *const clan_color[RTW_MAX_CLANS] = {"\033[32m", "\033[31m", "\033[33m",
                                                      "\033[34m"};

/* The items of mask for people, or "none". */
static void render_items(const rtw_state *s, uint32_t mask, item_namer name, FILE *out)
{
    char buf[512];
    rp_text t;
    rp__text_init(&t, buf, sizeof buf);
    list_items(&t, s, mask, name);
    fputs(buf, out);
}

static void render_forts(const rtw_state *s, uint32_t mask, FILE *out)
{
    render_items(s, mask, fort_text_of, out);
}

static void render_warriors(const rtw_state *s, uint32_t mask, FILE *out)
{
    render_items(s, mask, warrior_text, out);
}

/* What the clan to act must decide, in words. */
static void render_prompt(const rtw_state *s, int viewer, FILE *out)
{
    static const char *const what[RTW_PHASES] = {
        "place a warrior face down (the seventh is set aside)",
        "place the hidden warriors again (Zvord)",
        "pick the rival warrior the Qween charms",
        "pick the fort the Dru'hid takes",
        "discard a face-up warrior (Signal Fort)",
        "pay one of the forts held (Tax-Collector's Fort)",
        "keep the Axx face up, or drop it",
        "discard a face-up warrior (Horsie)",
        ""};
    if (s->phase == RTW_OVER) {
        char text[256];
        rp_text t;
        rp__text_init(&t, text, sizeof text);
        score_sentence(s, &t);
        fprintf(out, "Game over: %s.\n", text);
        return;
    }
    fprintf(out, "%s to act: %s", sees_own(viewer, s->actor) ? "You are" : clan_name[s->actor],
            what[s->phase]);
    if (s->phase == RTW_PLAN || s->phase == RTW_ZVORD_PLACE)
        fprintf(out, " in slot %d", s->next_slot + 1);
    fputs(".\n", out);
}

static void render_clan(const rtw_state *s, int c, int viewer, FILE *out, bool color)
{
    const char *reset = color ? "\033[0m" : "";
    fprintf(out, "%s%-6s%s%s  forts: ", color ? clan_color[c] : "", clan_name[c], reset,
            !is_player(s, c)      ? " (neutral)"
            : sees_own(viewer, c) ? " (you)    "
                                  : "          ");
    render_forts(s, s->forts[c], out);
    fprintf(out, " = %d points\n        face up: ", fort_total(s, c));
    render_warriors(s, s->up[c], out);
    fputs("\n        slots:", out);
    int shown = shown_slots(s);
    for (int i = 0; i < RTW_SLOTS; i++) {
        int k = s->slot[c][i];
        if (k == RTW_NONE)
            fputs("  .", out);
        else if (i < shown)
            fprintf(out, "  [%s]", warrior_name[k]);
        else
            fprintf(out, "  %s", sees_own(viewer, c) ? warrior_name[k] : "?");
    }
    if (s->round > 0) {
        fputs("\n        last round:", out);
        for (int i = 0; i < RTW_SLOTS; i++)
            fprintf(out, " %s", warrior_name[s->prev[c][i]]);
    }
    fputc('\n', out);
}

static void rtw_render(const void *st, int viewer, FILE *out, bool color)
{
    const rtw_state *s = st;
    const char *bold = color ? "\033[1m" : "", *reset = color ? "\033[0m" : "";
    char buf[48];
    fprintf(out, "%sRush the Wall%s  round %d/3, turn %d/6%s", bold, reset, s->round + 1,
            s->turn + 1, s->variant ? "  (Vogel variant)" : "");
    if (viewer >= 0 && viewer < s->players)
        fprintf(out, "  you are %s%s%s", color ? clan_color[viewer] : "", clan_name[viewer], reset);
    else
        fputs("  (spectator)", out);
    fputs("\nCard values are assumptions (RW-2, RW-3): `ramparts rules rush-the-wall` lists "
          "them.\nThe Wall:",
          out);
    for (int i = 0; i < RTW_SLOTS; i++) {
        if (s->wall[i] == RTW_NONE) {
            fprintf(out, "  %d:--", i + 1);
            continue;
        }
        fort_text(&s->cards, s->wall[i], buf, sizeof buf);
        bool current = i == s->turn && s->phase != RTW_PLAN;
        fprintf(out, "  %d:%s%s%s", i + 1, current ? "[" : "", buf, current ? "]" : "");
    }
    fprintf(out, "\nForts left to draw: %d; discarded: ", RTW_FORTS - RTW_SLOTS * (s->round + 1));
    render_forts(s, s->gone, out);
    fputc('\n', out);
    for (int c = 0; c < s->clans; c++)
        render_clan(s, c, viewer, out, color);
    if (s->capturer >= 0 && s->captured != RTW_NONE && s->phase != RTW_PLAN) {
        fort_text(&s->cards, s->captured, buf, sizeof buf);
        fprintf(out, "This turn %s captured %s.\n", clan_name[s->capturer], buf);
    }
    if (sees_own(viewer, s->actor) && s->hand[viewer] && s->phase != RTW_OVER) {
        fputs("Your hand: ", out);
        render_warriors(s, s->hand[viewer], out);
        fputc('\n', out);
    }
    render_prompt(s, viewer, out);
}

/* The card values in use (defaults or a cards= set), for `ramparts rules rush-the-wall`: the
 * rulebook gives only Arch'r's strength, so every number here is an assumption (RW-2, RW-3)
 * that a user may replace. */
static void rtw_describe(const void *st, FILE *out)
{
    const rtw_state *s = st;
    char buf[48];
    fputs("Card values in use (assumptions: the rulebook gives only Arch'r 5; RW-2, RW-3):\n"
          "  Warriors: ",
          out);
    render_warriors(s, ALL_WARRIORS, out);
    fputs("\n  Forts:", out);
    for (int f = 0; f < RTW_FORTS; f++) {
        fort_text(&s->cards, f, buf, sizeof buf);
        fprintf(out, "%s %s", f ? "," : "", buf);
    }
    char value[RP_OPTION_TEXT];
    rtw_cards_to_value(&s->cards, value, sizeof value);
    fprintf(out, "\n  As an option: cards=%s\n", value);
}

/* ---- the game ---- */

/* ---- observation tensor (for learning agents; layout in docs/python.md) ----
 * What one seat may see (the same things as its view) as floats. Clans are relative: slot 0
 * is the observer, then the other players' clans in seat order, then the neutral clans. Forts
 * are shown by kind and value, as the view names them: two forts with the same label are the
 * same card to a player, so holdings count forts per label (at the first fort id of that label
 * in the card set), never per fort id. */
enum {
    RTW_OBS_FORT = RTW_FORT_KINDS + 1, /* one fort: one-hot kind, absolute value */
    RTW_OBS_SLOT = RTW_KINDS + 1,      /* one slot: one-hot warrior, face down */
    RTW_OBS_CLAN = 1 + RTW_KINDS + RTW_SLOTS * RTW_OBS_SLOT + 1 + RTW_SLOTS * RTW_KINDS +
                   RTW_FORTS, /* one clan: 143 */
    RTW_OBS_GAME = 0,
    RTW_OBS_STRENGTHS = RTW_OBS_GAME + 4 + 1 + 4 + 4 + 3 + 6 + RTW_PHASES + 4 + 1,
    RTW_OBS_FORT_SET = RTW_OBS_STRENGTHS + RTW_KINDS,
    RTW_OBS_WALL = RTW_OBS_FORT_SET + RTW_FORTS * RTW_OBS_FORT,
    RTW_OBS_TURN = RTW_OBS_WALL + RTW_SLOTS * RTW_OBS_FORT,
    RTW_OBS_DISCARDED = RTW_OBS_TURN + RTW_SLOTS + 4 + 4 + RTW_OBS_FORT + RTW_KINDS,
    RTW_OBS_OWN = RTW_OBS_DISCARDED + RTW_FORTS,
    RTW_OBS_CLANS = RTW_OBS_OWN + 2 * RTW_KINDS,
    RTW_OBS_SIZE = RTW_OBS_CLANS + RTW_MAX_CLANS * RTW_OBS_CLAN
};

/* clang-format off */
static const rp_obs_field rtw_obs_fields[] = {
    {"game", RTW_OBS_GAME, {RTW_OBS_STRENGTHS - RTW_OBS_GAME, 1, 1},
     "one-hot your seat 0..3; 1 for the vogel variant; one-hot players 1..4; one-hot neutral "
     "clans 0..3; one-hot round 1..3; one-hot turn 1..6; one-hot phase (plan, zvord-place, "
     "qween-pick, druhid-pick, signal-pick, tax-pick, axx-pick, horsie-pick, over); once over, "
     "1 for each winning clan (relative) and 1 when it won by three Legions (RW-18)"},
    {"strengths", RTW_OBS_STRENGTHS, {RTW_KINDS, 1, 1},
     "the card set's warrior strengths / 30 (Filchy, Qween, Dru'hid, Zvord, Arch'r, Horsie, "
     "Axx, Chariott, Laird)"},
    {"fort_set", RTW_OBS_FORT_SET, {RTW_FORTS, RTW_OBS_FORT, 1},
     "the card set's 18 forts in canonical order (fort ids): one-hot kind (unwary, signal, "
     "tax, legion, dinary) and absolute value / 30 (a legion's value is negative)"},
    {"wall", RTW_OBS_WALL, {RTW_SLOTS, RTW_OBS_FORT, 1},
     "The Wall's positions 1..6: the fort there as one-hot kind and absolute value / 30, all "
     "0 once fought over"},
    {"turn", RTW_OBS_TURN, {RTW_OBS_DISCARDED - RTW_OBS_TURN, 1, 1},
     "one-hot the next slot to fill 1..6 (plan and zvord-place only); one-hot clan to act "
     "(relative; none when over); one-hot this turn's capturer (relative); the fort it took "
     "(one-hot kind, absolute value / 30); 1 for each warrior kind kept face up (Unwary, Axx)"},
    {"discarded", RTW_OBS_DISCARDED, {RTW_FORTS, 1, 1},
     "discarded forts: how many of each label, at the label's first fort id"},
    {"own", RTW_OBS_OWN, {2, RTW_KINDS, 1},
     "your hand (warriors still to place) then this round's drawn warriors: 1 per kind"},
    {"clans", RTW_OBS_CLANS, {RTW_MAX_CLANS, RTW_OBS_CLAN, 1},
     "per clan (relative; all 0 when absent): 1 present; 1 per face-up warrior kind; the slots "
     "1..6, each one-hot warrior kind then 1 when placed face down (all 0 when empty); hand "
     "size / 9; last round's six warriors one-hot by kind; forts held: how many of each label "
     "at the label's first fort id"},
};
/* clang-format on */

/* The first fort id of the card set with the same kind and value as f (f's label). */
static int fort_label_id(const rtw_cards *c, int f)
{
    for (int g = 0; g < f; g++)
        if (c->fort_kind[g] == c->fort_kind[f] && c->fort_value[g] == c->fort_value[f])
            return g;
    return f;
}

/* Fort f (or nothing for RTW_NONE) as one-hot kind and absolute value / 30. */
static void obs_fort(const rtw_cards *c, int f, float *out)
{
    if (f == RTW_NONE)
        return;
    out[c->fort_kind[f]] = 1.0f;
    const int v = c->fort_value[f];
    out[RTW_FORT_KINDS] = (float)(v < 0 ? -v : v) / 30.0f;
}

static void obs_fort_counts(const rtw_cards *c, uint32_t mask, float *out)
{
    for (; mask; mask &= mask - 1)
        out[fort_label_id(c, lowest_bit(mask))] += 1.0f;
}

static void obs_warriors(uint32_t mask, float *out)
{
    for (; mask; mask &= mask - 1)
        out[lowest_bit(mask)] = 1.0f;
}

/* The observer's slot for clan c: players rotated to start at `player`, neutrals after. */
static int obs_clan(const rtw_state *s, int player, int c)
{
    return c < s->players ? (c - player + s->players) % s->players : c;
}

static void obs_clan_row(const rtw_state *s, int player, int c, float *out)
{
    const int shown = shown_slots(s);
    out[0] = 1.0f;
    obs_warriors(s->up[c], out + 1);
    float *slots = out + 1 + RTW_KINDS;
    for (int i = 0; i < RTW_SLOTS && s->slot[c][i] != RTW_NONE; i++) {
        const bool seen = i < shown || c == player;
        slots[i * RTW_OBS_SLOT + (seen ? s->slot[c][i] : RTW_KINDS)] = 1.0f;
    }
    float *rest = slots + RTW_SLOTS * RTW_OBS_SLOT;
    rest[0] = (float)popcount(s->hand[c]) / 9.0f;
    for (int i = 0; s->round > 0 && i < RTW_SLOTS; i++)
        rest[1 + i * RTW_KINDS + s->prev[c][i]] = 1.0f;
    obs_fort_counts(&s->cards, s->forts[c], rest + 1 + RTW_SLOTS * RTW_KINDS);
}

static void obs_game(const rtw_state *s, int player, float *out)
{
    out[player] = 1.0f;
    out[4] = s->variant ? 1.0f : 0.0f;
    out[5 + s->players - 1] = 1.0f;
    out[9 + s->neutrals] = 1.0f;
    out[13 + s->round] = 1.0f;
    out[16 + s->turn] = 1.0f;
    out[22 + s->phase] = 1.0f;
    if (s->phase != RTW_OVER)
        return;
    for (uint32_t m = winners(s); m; m &= m - 1)
        out[22 + RTW_PHASES + obs_clan(s, player, lowest_bit(m))] = 1.0f;
    out[22 + RTW_PHASES + 4] = s->winner >= 0 ? 1.0f : 0.0f;
}

static void rtw_observation_tensor(const void *st, int player, float *out)
{
    const rtw_state *s = st;
    memset(out, 0, RTW_OBS_SIZE * sizeof *out);
    obs_game(s, player, out + RTW_OBS_GAME);
    for (int k = 0; k < RTW_KINDS; k++)
        out[RTW_OBS_STRENGTHS + k] = (float)s->cards.strength[k] / 30.0f;
    for (int f = 0; f < RTW_FORTS; f++)
        obs_fort(&s->cards, f, out + RTW_OBS_FORT_SET + f * RTW_OBS_FORT);
    for (int i = 0; i < RTW_SLOTS; i++)
        obs_fort(&s->cards, s->wall[i], out + RTW_OBS_WALL + i * RTW_OBS_FORT);
    float *turn = out + RTW_OBS_TURN;
    if (s->phase == RTW_PLAN || s->phase == RTW_ZVORD_PLACE)
        turn[s->next_slot] = 1.0f;
    if (s->phase != RTW_OVER)
        turn[RTW_SLOTS + obs_clan(s, player, s->actor)] = 1.0f;
    if (s->capturer >= 0)
        turn[RTW_SLOTS + 4 + obs_clan(s, player, s->capturer)] = 1.0f;
    obs_fort(&s->cards, s->captured, turn + RTW_SLOTS + 8);
    obs_warriors(s->keep, turn + RTW_SLOTS + 8 + RTW_OBS_FORT);
    obs_fort_counts(&s->cards, s->gone, out + RTW_OBS_DISCARDED);
    obs_warriors(s->hand[player], out + RTW_OBS_OWN);
    obs_warriors(s->drawn[player], out + RTW_OBS_OWN + RTW_KINDS);
    for (int c = 0; c < s->clans; c++)
        obs_clan_row(s, player, c, out + RTW_OBS_CLANS + obs_clan(s, player, c) * RTW_OBS_CLAN);
}

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
    .bench_options = NULL,   /* the default game (two clans) is the workload */
    .describe = rtw_describe,
    .paired_seats = false, /* chance (the deal, the forts) weighs more than the seat */
    .tool_turn_cap = 0,    /* three rounds end every game (RW-12) */
    /* Planned face down: the evaluation sees only public fort totals, flat while warriors
     * are placed, so the levels play out to the end of the game (docs/ai.md). */
    .ai_levels = {"iters=300,rollout=-1", "iters=1500,rollout=-1", "iters=4000,rollout=-1"},
    .init = rtw_init,
    .num_players = rtw_num_players,
    .current_player = rtw_current_player,
    .turn_number = rtw_turn_number,
    .legal_actions = rtw_legal_actions,
    .apply = rtw_apply,
    .returns = rtw_returns,
    .action_to_text = rtw_action_to_text,
    .action_from_text = rtw_action_from_text,
    .state_to_text = rtw_state_to_text,
    .state_from_text = rtw_state_from_text,
    .state_ok = rtw_state_ok,
    .config_of = rtw_config_of,
    .view_json = rtw_view_json,
    .determinize = rtw_determinize,
    .render = rtw_render,
    .action_json = rtw_action_json,
    .events_json = rtw_events_json,
    .explain_illegal = rtw_explain_illegal,
    .moves_summary = NULL, /* at most nine legal moves */
    .secret_names = rtw_secret_names,
    .evaluate = rtw_evaluate,
    .observe_action = rtw_observe_action,
    .observation_size = RTW_OBS_SIZE,
    .observation_fields = rtw_obs_fields,
    .num_observation_fields = (int)(sizeof rtw_obs_fields / sizeof rtw_obs_fields[0]),
    .observation_tensor = rtw_observation_tensor,
};
