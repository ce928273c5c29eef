/* game.c — Rush the Wall's card sets (the card file, the cards= option's value, the
 * defaults), its options and traits, and its rp_game table with every field. */
#include "games/rush-the-wall/internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/check.h"
#include "core/notation.h"

/* ---- card sets: the card file, the one-word option value, the defaults ---- */

extern const char rp_rush_the_wall_cards_text[];

/* The index of w among the n words, or -1. */
int rtw_word_index(const char *const *words, int n, const char *w)
{
    for (int i = 0; i < n; i++)
        if (strcmp(words[i], w) == 0)
            return i;
    return -1;
}

/* A whole decimal integer within [lo, hi]. */
bool rtw_parse_int_range(const char *text, long lo, long hi, long *out)
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
int rtw_split_words(char *text, char **words, int max)
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
int rtw_check_cards(const rtw_cards *c, const char *what, rp_error *err)
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
    int n = rtw_split_words(line, words, 3);
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
        int k = rtw_word_index(warrior_word, RTW_KINDS, words[1]);
        if (k < 0)
            return rp_fail(err, RP_EPARSE, "%s line %d: unknown warrior '%s'", source, lineno,
                           words[1]);
        if (*seen & BIT(k))
            return rp_fail(err, RP_EPARSE, "%s line %d: warrior '%s' given twice", source, lineno,
                           words[1]);
        if (!rtw_parse_int_range(words[2], 0, 30, &v))
            return rp_fail(err, RP_EPARSE, "%s line %d: strength '%s' is not a number 0..30",
                           source, lineno, words[2]);
        *seen |= BIT(k);
        c->strength[k] = (int8_t)v;
        return RP_OK;
    }
    if (strcmp(words[0], "fort") == 0) {
        int k = rtw_word_index(fort_word, RTW_FORT_KINDS, words[1]);
        if (k < 0)
            return rp_fail(err, RP_EPARSE, "%s line %d: unknown fort kind '%s'", source, lineno,
                           words[1]);
        bool legion = k == RTW_LEGION;
        if (!rtw_parse_int_range(words[2], legion ? -30 : 1, legion ? -1 : 30, &v))
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
    int rc = rtw_check_cards(&c, source, err);
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
void rtw_put_cards_value(rp_text *t, const rtw_cards *c)
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
    rtw_put_cards_value(&t, cards);
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
 * canonical spelled set. The notation may not spell out the default set (one text per
 * state); the option may (a designer writes sets out, and sweeps through the default). */
int rtw_read_cards_value(rp_reader *r, const char *what, rp_span v, bool option, rtw_cards *out)
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
    if (rtw_check_cards(&c, what, r->err) < 0)
        return RP_EPARSE;
    if (cards_are_default(&c) && !option)
        return rp__read_fail(r, what, "this is the default card set: write 'default'");
    *out = c;
    return RP_OK;
}

int rtw_cards_from_value(const char *value, rtw_cards *out, rp_error *err)
{
    rp_reader r = {value, value, "", err};
    rp_span v = {value, strlen(value)};
    return rtw_read_cards_value(&r, "cards", v, true, out);
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

/* ---- options ---- */

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

/* ---- traits and the table ---- */

/* Player seat i is clan colour i (RW-1): the clans' names (clan_name). */
static const char *const rtw_seat_names[RTW_MAX_CLANS] = {"Green", "Red", "Gold", "Blue"};

/* Per round (RW-5, RW-6) each player clan places its six warriors, and each of the six turns
 * asks at most one Qween charm, one Dru'hid pick, one Tax payment and one Axx choice (the
 * capturer's), one Signal and one Horsie discard per clan, and a Zvord re-placing of at most
 * five hidden warriors per clan: 6P + 6 (4 + 7P) actions with P player clans, three rounds. */
static int rtw_max_game_length(const void *st)
{
    const int clans = ((const rtw_state *)st)->players;
    return RTW_ROUNDS * (6 * clans + RTW_SLOTS * (4 + 7 * clans));
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
    .seat_names = rtw_seat_names,
    .bench_options = NULL, /* the default game (two clans) is the workload */
    /* Planned face down: the evaluation sees only public fort totals, flat while warriors
     * are placed, so the levels play out to the end of the game (docs/ai.md). */
    /* hard at 48000 iterations and exploration 2.0 (likely because playouts return only win
     * or lose and at a table of four a clan wins rarely; not tested alone): against medium it
     * won 71.0% of 400 games with two clans, 40.5% of 402 with three and 32.4% of 400 with four
     * (16000 at the default 0.4: 58.2%, 37.7%, 24.8%), about 0.1 s a move (docs/ai.md,
     * "Rush the Wall as it is now") */
    .ai_levels = {"iters=300,rollout=-1", "iters=1500,rollout=-1", "iters=48000,rollout=-1,c=2.0"},
    .paired_seats = false, /* chance (the deal, the forts) weighs more than the seat */
    /* measured: docs/ai.md, The ladder */
    .ai_level_note = "Each level beats the one below, modestly: the draws weigh much (with two "
                     "clans medium beat easy in 62.5% of 400 games, hard beat medium 71%; hard "
                     "alone against two medium won 40.5% of 402, fair share 33%, and against "
                     "three 32% of 400, fair share 25%).",
    .tool_turn_cap = 0,   /* three rounds end every game (RW-12) */
    .simultaneous = true, /* planning and revealing are simultaneous (RW-5): no first player */
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
    .determinize_seats = rtw_determinize_seats,
    .render = rtw_render,
    .action_json = rtw_action_json,
    .events_json = rtw_events_json,
    .describe = rtw_describe, /* the card values in use: the rulebook gives only Arch'r's */
    .explain_illegal = rtw_explain_illegal,
    .moves_summary = NULL, /* at most nine legal moves */
    .secret_names = rtw_secret_names,
    .score = rtw_score,
    .evaluate = rtw_evaluate,
    .observe_action = rtw_observe_action,
    .observation_size = RTW_OBS_SIZE,
    .observation_fields = rtw_obs_fields,
    .num_observation_fields = (int)(sizeof rtw_obs_fields / sizeof rtw_obs_fields[0]),
    .observation_tensor = rtw_observation_tensor,
    .max_game_length = rtw_max_game_length,
    .reseed = rtw_reseed,
};
