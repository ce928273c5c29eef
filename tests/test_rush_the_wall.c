/* test_rush_the_wall.c — Rush the Wall: one test per rule of the rulebook and per ruling
 * (RW-n from the shared rulings, RTW-Pn from docs/rules/rush-the-wall.md), built from
 * hand-made turns; the events each viewer is told, views, notation, card sets and options;
 * and property runs over random games for every clan mix and the variant. */
#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/rush-the-wall/internal.h"
#include "support.h"

static const rp_game *const G = &rp_rush_the_wall;

/* Default fort ids (data/rush-the-wall.cards in canonical order, RW-3): */
enum {
    UNWARY2,
    SIGNAL4,
    TAX8,
    LEG1,
    LEG2A,
    LEG2B,
    LEG3,
    D1A,
    D1B,
    D3A,
    D3B,
    D4A,
    D4B,
    D5A,
    D5B,
    D6A,
    D6B,
    D6C
};

static const char *const WORD[RTW_KINDS] = {"filchy", "qween", "druhid",   "zvord", "archr",
                                            "horsie", "axx",   "chariott", "laird"};
static const char *const NAME[RTW_KINDS] = {"Filchy", "Qween", "Dru'hid",   "Zvord", "Arch'r",
                                            "Horsie", "Axx",   "Ch'ariott", "Laird"};

static int kind_of(char letter)
{
    const char *k = strchr("fqdzahxcl", letter);
    if (!k || !letter)
        fail_msg("bad warrior letter '%c'", letter);
    return (int)(k - "fqdzahxcl");
}

static uint16_t mask_of(const char *letters)
{
    uint16_t m = 0;
    for (; *letters; letters++)
        m |= (uint16_t)(1u << kind_of(*letters));
    return m;
}

static void play(rtw_state *s, const char *move)
{
    rp_test_play(G, s, move);
}

static rp_action action_of(const rtw_state *s, const char *move)
{
    rp_action a;
    rp_error err = {{0}};
    if (rp_parse_move(G, s, move, &a, &err) < 0)
        fail_msg("move '%s': %s", move, err.msg);
    return a;
}

/* Start a game with `options`, in round `round` (1-based), with `wall` as this round's wall
 * (it must already be in RW-4 order), `held[c]` the forts each clan holds from earlier rounds
 * (the other earlier forts are discarded) and plans[c] the clan's six warriors in slot order
 * (a player clan adds its seventh, set aside, as a seventh letter). The player clans' plans
 * are played as moves but the very last, which is written to `last` (the caller plays it, or
 * asks for its events). In rounds 2 and 3 every clan's last round was "fqdzah". */
static void setup_round_before_last(rtw_state *s, const char *options, int round,
                                    const uint8_t wall[6], const uint32_t *held,
                                    const char *const *plans, char *last, size_t size)
{
    rp_test_init(G, s, options);
    int r = round - 1;
    uint32_t used = 0;
    for (int i = 0; i < 6; i++)
        used |= 1u << wall[i];
    uint32_t prior = 0;
    for (int c = 0; held && c < s->clans; c++)
        prior |= held[c];
    int n = 0;
    for (int f = 0; f < RTW_FORTS && n < 6 * r; f++) /* earlier rounds: held first */
        if ((prior & (1u << f)))
            s->deck[n++] = (uint8_t)f;
    for (int f = 0; f < RTW_FORTS && n < 6 * r; f++)
        if (!(used & (1u << f)) && !(prior & (1u << f)))
            s->deck[n++] = (uint8_t)f, s->gone |= 1u << f;
    assert_int_equal(n, 6 * r);
    for (int i = 0; i < 6; i++)
        s->deck[n++] = wall[i];
    for (int f = 0; f < RTW_FORTS; f++) {
        bool placed = false;
        for (int i = 0; i < n; i++)
            placed |= s->deck[i] == f;
        if (!placed)
            s->deck[n++] = (uint8_t)f;
    }
    s->round = (uint8_t)r;
    memcpy(s->wall, wall, 6);
    for (int c = 0; c < s->clans; c++) {
        s->forts[c] = held ? held[c] : 0;
        s->drawn[c] = mask_of(plans[c]);
        for (int i = 0; i < 6; i++)
            s->prev[c][i] = r ? (uint8_t)kind_of("fqdzah"[i]) : RTW_NONE;
        if (c < s->players) {
            assert_int_equal(strlen(plans[c]), 7);
            s->hand[c] = s->drawn[c];
            memset(s->slot[c], RTW_NONE, 6);
        } else {
            assert_int_equal(strlen(plans[c]), 6);
            for (int i = 0; i < 6; i++)
                s->slot[c][i] = (uint8_t)kind_of(plans[c][i]);
        }
    }
    rp_error err = {{0}};
    if (rtw_check(s, &err) < 0)
        fail_msg("setup is not a sound state: %s", err.msg);
    for (int c = 0; c < s->players; c++)
        for (int i = 0; i < 6; i++) {
            snprintf(last, size, "place %s", WORD[kind_of(plans[c][i])]);
            if (c < s->players - 1 || i < 5)
                play(s, last);
        }
}

static void setup_round(rtw_state *s, const char *options, int round, const uint8_t wall[6],
                        const uint32_t *held, const char *const *plans)
{
    char last[32];
    setup_round_before_last(s, options, round, wall, held, plans, last, sizeof last);
    play(s, last);
}

static void setup(rtw_state *s, const char *options, const uint8_t wall[6],
                  const char *const *plans)
{
    setup_round(s, options, 1, wall, NULL, plans);
}

static uint16_t up(const rtw_state *s, int clan)
{
    return s->up[clan];
}

static bool legal(const rtw_state *s, const char *move)
{
    return rp_test_is_legal(G, s, move);
}

static int num_legal(const rtw_state *s)
{
    rp_action a[RP_MAX_LEGAL];
    return G->legal_actions(s, a);
}

/* A plain wall: lowest positive left, highest right (RW-4 order already). */
static const uint8_t PLAIN_WALL[6] = {D1A, UNWARY2, D3A, D4A, D5A, D6A};
static const uint8_t SIGNAL_WALL[6] = {D1A, SIGNAL4, D3A, D4A, D5A, D6A};

/* ---- events: what each viewer is told ---- */

/* The events `move` in s tells viewer (caller deletes). */
static cJSON *events_of(const rtw_state *s, const char *move, int viewer)
{
    rp_error err = {{0}};
    cJSON *events = rp_events_cjson(G, s, action_of(s, move), viewer, &err);
    if (!events)
        fail_msg("events of '%s': %s", move, err.msg);
    return events;
}

/* The n-th (0-based) event of `kind`; fails the test when there is none. */
static const cJSON *nth_event(const cJSON *events, const char *kind, int n)
{
    const cJSON *e;
    cJSON_ArrayForEach (e, events) {
        const cJSON *k = cJSON_GetObjectItemCaseSensitive(e, "kind");
        if (cJSON_IsString(k) && strcmp(k->valuestring, kind) == 0 && n-- == 0)
            return e;
    }
    char *dump = cJSON_Print(events);
    fail_msg("no event '%s' #%d among\n%s", kind, n, dump);
    return NULL;
}

static int count_events(const cJSON *events, const char *kind)
{
    int n = 0;
    const cJSON *e;
    cJSON_ArrayForEach (e, events) {
        const cJSON *k = cJSON_GetObjectItemCaseSensitive(e, "kind");
        n += cJSON_IsString(k) && strcmp(k->valuestring, kind) == 0;
    }
    return n;
}

static const char *text_of(const cJSON *e)
{
    return cJSON_GetObjectItemCaseSensitive(e, "text")->valuestring;
}

/* The n-th event of `kind` says exactly `text`. */
static void expect_text(const cJSON *events, const char *kind, int n, const char *text)
{
    assert_string_equal(text_of(nth_event(events, kind, n)), text);
}

/* The event's "cards" are exactly the comma-separated words (or absent when ""). */
static void expect_cards(const cJSON *e, const char *words)
{
    const cJSON *cards = cJSON_GetObjectItemCaseSensitive(e, "cards");
    if (!*words) {
        assert_null(cards);
        return;
    }
    char got[128] = "";
    const cJSON *c;
    cJSON_ArrayForEach (c, cards) {
        strcat(got, got[0] ? "," : "");
        strcat(got, c->valuestring);
    }
    assert_string_equal(got, words);
}

static int seat_of(const cJSON *e)
{
    const cJSON *seat = cJSON_GetObjectItemCaseSensitive(e, "seat");
    return seat ? seat->valueint : -1;
}

static bool reveals(const cJSON *e)
{
    return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(e, "reveal"));
}

/* ---- card data (RW-2, RW-3) and the cards= option ---- */

/* RW-2 and RW-3: the embedded defaults are exactly the rulings' values. */
static void test_rw2_rw3_default_cards(void **unused)
{
    (void)unused;
    const rtw_cards *c = rtw_default_cards();
    static const int strength[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9}; /* Filchy 1 .. Laird 9 */
    for (int k = 0; k < 9; k++)
        assert_int_equal(c->strength[k], strength[k]);
    assert_int_equal(c->strength[RTW_ARCHR], 5); /* the one number the rulebook gives */
    int kinds[RTW_FORT_KINDS] = {0}, legion_sum = 0, dinary_sum = 0;
    for (int f = 0; f < RTW_FORTS; f++) {
        kinds[c->fort_kind[f]]++;
        if (c->fort_kind[f] == RTW_LEGION)
            legion_sum += c->fort_value[f];
        if (c->fort_kind[f] == RTW_DINARY)
            dinary_sum += c->fort_value[f];
    }
    assert_int_equal(kinds[RTW_UNWARY], 1);
    assert_int_equal(kinds[RTW_SIGNAL], 1);
    assert_int_equal(kinds[RTW_TAX], 1);
    assert_int_equal(kinds[RTW_LEGION], 4);
    assert_int_equal(kinds[RTW_DINARY], 11);
    assert_int_equal(legion_sum, -1 - 2 - 2 - 3);
    assert_int_equal(dinary_sum, 1 + 1 + 3 + 3 + 4 + 4 + 5 + 5 + 6 + 6 + 6);
    assert_int_equal(c->fort_value[UNWARY2], 2);
    assert_int_equal(c->fort_value[SIGNAL4], 4);
    assert_int_equal(c->fort_value[TAX8], 8);
    char value[RP_OPTION_TEXT];
    assert_true(rtw_cards_to_value(c, value, sizeof value) > 0);
    assert_string_equal(value, "default"); /* the default set is named, not spelled */
}

/* A card file with the forts in no particular order (the tax first). */
static const char *const GOOD_CARDS =
    "# a custom table\nwarrior filchy 2\nwarrior qween 3\nwarrior druhid 4\nwarrior zvord 5\n"
    "warrior archr 6\nwarrior horsie 7\nwarrior axx 8\nwarrior chariott 9\n"
    "warrior laird 10   # the ninth\nfort tax 1\nfort unwary 2\nfort signal 4\n"
    "fort legion -1\nfort legion -2\nfort legion -3\nfort legion -2\n"
    "fort dinary 7\nfort dinary 3\nfort dinary 3\nfort dinary 4\nfort dinary 4\n"
    "fort dinary 5\nfort dinary 5\nfort dinary 6\nfort dinary 6\nfort dinary 6\nfort dinary 2\n";
/* Its one-word value: strengths in warrior order, forts by kind, each nearest zero first. */
/* The default card set written out in the option's form (data/rush-the-wall.cards). */
#define DEFAULT_SPELLED                                                                            \
    "1,2,3,4,5,6,7,8,9/u2,s4,t8,l-1,l-2,l-2,l-3,d1,d1,d3,d3,d4,d4,d5,d5,d6,d6,d6"
static const char *const GOOD_VALUE =
    "2,3,4,5,6,7,8,9,10/u2,s4,t1,l-1,l-2,l-2,l-3,d2,d3,d3,d4,d4,d5,d5,d6,d6,d6,d7";

/* The option's from_file converter (what the command line calls for cards=@FILE). */
static int from_file(const char *text, char *value, size_t size, rp_error *err)
{
    const rp_option_spec *spec = NULL;
    for (int i = 0; i < G->num_options; i++)
        if (strcmp(G->options[i].name, "cards") == 0)
            spec = &G->options[i];
    assert_non_null(spec);
    assert_int_equal(spec->kind, RP_OPT_TEXT);
    assert_non_null(spec->from_file);
    return spec->from_file(text, "my.cards", value, size, err);
}

/* Issue 11: a card file becomes the one-word value records and the protocol carry; its fort
 * order does not matter (canonical order numbers the forts). */
static void test_rw2_card_file_becomes_the_option_value(void **unused)
{
    (void)unused;
    char value[RP_OPTION_TEXT];
    rp_error err = {{0}};
    assert_int_equal(from_file(GOOD_CARDS, value, sizeof value, &err), RP_OK);
    assert_string_equal(value, GOOD_VALUE);
    /* the embedded default file converts to the name of the default set */
    extern const char rp_rush_the_wall_cards_text[];
    assert_int_equal(from_file(rp_rush_the_wall_cards_text, value, sizeof value, &err), RP_OK);
    assert_string_equal(value, "default");
    /* too small a buffer is refused with a reason */
    char tiny[8];
    assert_true(from_file(GOOD_CARDS, tiny, sizeof tiny, &err) < 0);
    assert_non_null(strstr(err.msg, "does not fit"));
}

/* RW-2/RW-3 defaults are replaceable: cards=VALUE sets the values, and they live in the state
 * and its notation. */
static void test_rw2_cards_value_replaces_defaults(void **unused)
{
    (void)unused;
    rtw_state s;
    char opts[RP_OPTION_TEXT + 32];
    snprintf(opts, sizeof opts, "players=2 cards=%s", GOOD_VALUE);
    rp_test_init(G, &s, opts);
    assert_int_equal(s.cards.strength[RTW_LAIRD], 10);
    assert_int_equal(s.cards.fort_kind[2], RTW_TAX); /* u2, s4, then the tax */
    assert_int_equal(s.cards.fort_value[2], 1);
    assert_int_equal(s.cards.fort_value[RTW_FORTS - 1], 7);
    char text[RP_STATE_TEXT], field[RP_OPTION_TEXT + 16];
    assert_true(G->state_to_text(&s, text, sizeof text) > 0);
    snprintf(field, sizeof field, " cards=%s ", GOOD_VALUE);
    assert_non_null(strstr(text, field));
    rtw_state back;
    rp_test_load(G, &back, text);
    assert_memory_equal(&back, &s, sizeof s);
    rp_test_init(G, &s, "cards=default");
    assert_memory_equal(&s.cards, rtw_default_cards(), sizeof s.cards);
}

/* A malformed card file is refused, naming the line and the reason, and writes no value. */
static void test_cards_file_malformed_is_refused_with_line(void **unused)
{
    (void)unused;
    static const struct {
        const char *text, *expect;
    } bad[] = {
        {"warrior filchy 1\nwarrior qween two\n", "my.cards line 2: strength 'two'"},
        {"warrior filchy 1\nwarrior filchy 2\n", "line 2: warrior 'filchy' given twice"},
        {"# c\nwarrior wizard 3\n", "line 2: unknown warrior 'wizard'"},
        {"fort legion 2\n", "line 1: value '2'"},
        {"fort moat 2\n", "line 1: unknown fort kind 'moat'"},
        {"soldier x 1\n", "line 1: unknown card type 'soldier'"},
        {"warrior laird\n", "line 1: expected"},
        {"warrior laird 9 extra\n", "line 1: too many words"},
        {"warrior laird 31\n", "line 1: strength '31'"},
        {"warrior filchy 1\n", "warrior 'qween' is missing"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char value[RP_OPTION_TEXT] = "untouched";
        rp_error err = {{0}};
        assert_true(from_file(bad[i].text, value, sizeof value, &err) < 0);
        if (!strstr(err.msg, bad[i].expect))
            fail_msg("case %zu: message '%s' lacks '%s'", i, err.msg, bad[i].expect);
        assert_string_equal(value, "untouched");
    }
    /* 17 forts: the count is checked too */
    char text[2048], value[RP_OPTION_TEXT];
    snprintf(text, sizeof text, "%s", GOOD_CARDS);
    *strstr(text, "fort dinary 2\n") = '\0';
    rp_error err = {{0}};
    assert_true(from_file(text, value, sizeof value, &err) < 0);
    assert_non_null(strstr(err.msg, "17 forts, expected exactly 18"));
}

/* A state's own card set is held to the card file's ranges (docs/rules/rush-the-wall.md, Card
 * values: strengths 0..30, a Legion at -30..-1, the other forts 1..30) also when the state comes
 * in as bytes no parser read (rtw_check, behind state_ok): each value just past its range is
 * refused, by name. */
static void test_state_card_values_out_of_range_are_refused(void **unused)
{
    (void)unused;
    static const struct {
        int fort, value;
        const char *expect;
    } forts[] = {{D1A, 0, "not in 1..30"},
                 {D1A, 31, "not in 1..30"},
                 {LEG1, 0, "not in -30..-1"},
                 {LEG1, -31, "not in -30..-1"}};
    static const int strengths[] = {-1, 31};
    for (size_t i = 0; i < sizeof forts / sizeof *forts + sizeof strengths / sizeof *strengths;
         i++) {
        rtw_state s;
        rp_test_init(G, &s, "players=2");
        rp_error err = {{0}};
        assert_true(rtw_check(&s, &err) >= 0);
        const bool fort = i < sizeof forts / sizeof *forts;
        if (fort)
            s.cards.fort_value[forts[i].fort] = (int8_t)forts[i].value;
        else
            s.cards.strength[RTW_LAIRD] = (int8_t)strengths[i - sizeof forts / sizeof *forts];
        const char *expect = fort ? forts[i].expect : "not in 0..30";
        assert_true(rtw_check(&s, &err) < 0);
        if (!strstr(err.msg, expect))
            fail_msg("case %zu: message '%s' lacks '%s'", i, err.msg, expect);
    }
}

/* A set's value starts with Filchy's strength, any of 0..30 (docs/rules/rush-the-wall.md,
 * Options: "the nine strengths in the order Filchy, ..."): one that starts with a 9 is a set,
 * not a word. */
static void test_cards_value_may_start_with_any_digit(void **unused)
{
    (void)unused;
    rtw_state s;
    rp_test_init(G, &s,
                 "players=2 cards=9,2,3,4,5,6,7,8,1/"
                 "u2,s4,t8,l-1,l-2,l-2,l-3,d1,d1,d3,d3,d4,d4,d5,d5,d6,d6,d6");
    assert_int_equal(s.cards.strength[RTW_FILCHY], 9);
    assert_int_equal(s.cards.strength[RTW_LAIRD], 1);
}

/* The one-word value has one spelling per card set: anything else is refused with a reason
 * (issue 11's canonical spelling). */
static void test_cards_value_is_canonical(void **unused)
{
    (void)unused;
    static const struct {
        const char *value, *expect;
    } bad[] = {
        {"2,3,4,5,6,7,8,9/u2,s4,t1,l-1,l-2,l-2,l-3,d2,d3,d3,d4,d4,d5,d5,d6,d6,d6,d7",
         "8 strengths"},
        {"02,3,4,5,6,7,8,9,10/u2,s4,t1,l-1,l-2,l-2,l-3,d2,d3,d3,d4,d4,d5,d5,d6,d6,d6,d7",
         "leading zero"},
        {"+2,3,4,5,6,7,8,9,10/u2,s4,t1,l-1,l-2,l-2,l-3,d2,d3,d3,d4,d4,d5,d5,d6,d6,d6,d7",
         "not a whole number"},
        {"2,3,4,5,6,7,8,9,10/s4,u2,t1,l-1,l-2,l-2,l-3,d2,d3,d3,d4,d4,d5,d5,d6,d6,d6,d7",
         "out of order"},
        {"2,3,4,5,6,7,8,9,10/u2,s4,t1,l-1,l-2,l-2,l-3,d3,d2,d3,d4,d4,d5,d5,d6,d6,d6,d7",
         "out of order"},
        {"2,3,4,5,6,7,8,9,10/u2,s4,t1,l1,l-2,l-2,l-3,d2,d3,d3,d4,d4,d5,d5,d6,d6,d6,d7",
         "not in -30..-1"},
        {"2,3,4,5,6,7,8,9,10/u2,s4,t1,l-1,l-2,l-2,l-3,d0,d3,d3,d4,d4,d5,d5,d6,d6,d6,d7",
         "not in 1..30"},
        {"2,3,4,5,6,7,8,9,10/u2,s4,x1,l-1,l-2,l-2,l-3,d2,d3,d3,d4,d4,d5,d5,d6,d6,d6,d7",
         "kind letter"},
        {"2,3,4,5,6,7,8,9,10/u2,s4,t1,l-1,l-2,l-2,l-3,d2,d3,d3,d4,d4,d5,d5,d6,d6,d6", "17 forts"},
        {"2,3,4,5,6,7,8,9,10/u2,s4,t1,l-1,l-2,l-2,l-3,d2,d3,d3,d4,d4,d5,d5,d6,d6,d6,d7,d7",
         "more than eighteen"},
        {"2,3,4,5,6,7,8,9,9/u2,s4,t1,l-1,l-2,l-2,l-3,d2,d3,d3,d4,d4,d5,d5,d6,d6,d6,d7",
         "same strength"},
        {"DEFAULT", "expected 'default'"},
        {"my.cards", "expected 'default'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        rtw_cards c;
        memset(&c, 0x5A, sizeof c);
        rtw_cards before = c;
        rp_error err = {{0}};
        assert_true(rtw_cards_from_value(bad[i].value, &c, &err) < 0);
        if (!strstr(err.msg, bad[i].expect))
            fail_msg("case %zu: message '%s' lacks '%s'", i, err.msg, bad[i].expect);
        assert_memory_equal(&c, &before, sizeof c);
        /* and init refuses it the same way, leaving the state alone */
        rp_config cfg;
        rp_config_default(G, &cfg);
        char kv[RP_OPTION_TEXT + 8];
        snprintf(kv, sizeof kv, "cards=%s", bad[i].value);
        assert_int_equal(rp_config_set(G, &cfg, kv, &err), RP_OK);
        rtw_state s, untouched;
        memset(&s, 0x3C, sizeof s);
        untouched = s;
        assert_true(G->init(&s, &cfg, &err) < 0);
        assert_non_null(strstr(err.msg, bad[i].expect));
        assert_memory_equal(&s, &untouched, sizeof s);
    }
    rtw_cards c;
    rp_error err = {{0}};
    assert_int_equal(rtw_cards_from_value(GOOD_VALUE, &c, &err), RP_OK);
    char back[RP_OPTION_TEXT];
    assert_true(rtw_cards_to_value(&c, back, sizeof back) > 0);
    assert_string_equal(back, GOOD_VALUE);
    /* the default set spelled out is the default (a designer writes sets out, issue 29); the
     * value it goes back to is the one word, as records carry it */
    assert_int_equal(rtw_cards_from_value(DEFAULT_SPELLED, &c, &err), RP_OK);
    assert_memory_equal(&c, rtw_default_cards(), sizeof c);
    assert_true(rtw_cards_to_value(&c, back, sizeof back) > 0);
    assert_string_equal(back, "default");
}

/* RTW-P4: equal warrior strengths are refused (the weakest warrior must be one, RW-16), in a
 * card file and in the option's value. */
static void test_rtw_p4_equal_strengths_refused(void **unused)
{
    (void)unused;
    char text[2048], value[RP_OPTION_TEXT];
    snprintf(text, sizeof text, "%s", GOOD_CARDS);
    memcpy(strstr(text, "laird 10"), "laird 9 ", 8); /* same as chariott */
    rp_error err = {{0}};
    assert_true(from_file(text, value, sizeof value, &err) < 0);
    assert_non_null(strstr(err.msg, "same strength"));
    assert_non_null(strstr(err.msg, "RTW-P4"));
    rtw_cards c;
    assert_true(rtw_cards_from_value("1,1,3,4,5,6,7,8,9/u2,s4,t8,l-1,l-2,l-2,l-3,d1,d1,d3,d3,"
                                     "d4,d4,d5,d5,d6,d6,d6",
                                     &c, &err) < 0);
    assert_non_null(strstr(err.msg, "same strength"));
}

/* Issue 11: the game never opens a path. @FILE is refused by the library (only the command
 * line reads files), and a path given as the value is refused as a malformed card set with the
 * same message whether or not the file exists, so the protocol cannot probe the disk. */
static void test_cards_option_opens_no_file(void **unused)
{
    (void)unused;
    rp_config cfg;
    rp_config_default(G, &cfg);
    rp_config before = cfg;
    rp_error err = {{0}};
    assert_true(rp_config_set(G, &cfg, "cards=@/etc/passwd", &err) < 0);
    assert_non_null(strstr(err.msg, "command-line"));
    assert_memory_equal(&cfg, &before, sizeof cfg);
    char msg[2][RP_ERROR_TEXT];
    static const char *const paths[2] = {"cards=/etc/passwd", "cards=/no/such/file"};
    for (int i = 0; i < 2; i++) {
        rp_config_default(G, &cfg);
        assert_int_equal(rp_config_set(G, &cfg, paths[i], &err), RP_OK);
        rtw_state s;
        assert_true(G->init(&s, &cfg, &err) < 0);
        snprintf(msg[i], sizeof msg[i], "%s", err.msg);
    }
    assert_string_equal(msg[0], msg[1]);
    assert_null(strstr(msg[0], "open"));
}
/* ---- options (RW-1) ---- */

/* RW-1: 1-4 player clans, 0-2 neutrals, 2-4 clans in all; RTW-P5: one player alone gets a
 * neutral clan unless neutrals= is given. */
static void test_rw1_clan_counts(void **unused)
{
    (void)unused;
    rtw_state s;
    rp_test_init(G, &s, "players=1");
    assert_int_equal(s.players, 1);
    assert_int_equal(s.neutrals, 1); /* RTW-P5 */
    assert_int_equal(G->num_players(&s), 1);
    rp_test_init(G, &s, "players=2 neutrals=2");
    assert_int_equal(s.clans, 4);
    static const char *const bad[] = {"players=1 neutrals=0", "players=4 neutrals=1",
                                      "players=3 neutrals=2"};
    for (size_t i = 0; i < 3; i++) {
        rp_config cfg;
        rp_config_default(G, &cfg);
        rp_error err = {{0}};
        char opts[64];
        snprintf(opts, sizeof opts, "%s", bad[i]);
        for (char *tok = strtok(opts, " "); tok; tok = strtok(NULL, " "))
            assert_int_equal(rp_config_set(G, &cfg, tok, &err), RP_OK);
        assert_true(G->init(&s, &cfg, &err) < 0);
        assert_non_null(strstr(err.msg, "RW-1"));
    }
}

/* RW-1: the seats are the clans, by colour: player seat i is clan i, named as the views and
 * events name that clan. */
static void test_rw1_seats_are_the_clans(void **unused)
{
    (void)unused;
    static const char *const clans[RTW_MAX_CLANS] = {"Green", "Red", "Gold", "Blue"};
    for (int c = 0; c < RTW_MAX_CLANS; c++) {
        assert_string_equal(rp_seat_name(G, c), clans[c]);
        assert_string_equal(rp_seat_name(G, c), clan_name[c]);
    }
}

/* ---- setup and planning ---- */

/* RW-4: highest positive to the right end, lowest positive to the left end, nearest the end
 * among equals; the others keep their order; Legions (not positive) never move by this. */
static void test_rw4_wall_order(void **unused)
{
    (void)unused;
    const rtw_cards *c = rtw_default_cards();
    uint8_t wall[6];
    const uint8_t draw1[6] = {D3A, D6A, D1A, D6B, UNWARY2, D1B};
    rtw_arrange_wall(c, draw1, wall);
    const uint8_t want1[6] = {D1A, D3A, D6A, UNWARY2, D1B, D6B};
    assert_memory_equal(wall, want1, 6);
    const uint8_t draw2[6] = {LEG1, D4A, LEG3, D5A, D3A, LEG2A};
    rtw_arrange_wall(c, draw2, wall);
    const uint8_t want2[6] = {D3A, LEG1, D4A, LEG3, LEG2A, D5A};
    assert_memory_equal(wall, want2, 6);
    /* init draws six and arranges them */
    rtw_state s;
    rp_test_init(G, &s, "seed=11");
    rtw_arrange_wall(c, s.deck, wall);
    assert_memory_equal(wall, s.wall, 6);
}

/* RTW-P1: a lone positive fort is moved right, then left: it ends at the left end. */
static void test_rtw_p1_lone_positive_fort_goes_left(void **unused)
{
    (void)unused;
    rtw_cards c;
    memset(&c, 0, sizeof c);
    for (int f = 0; f < RTW_FORTS; f++) {
        c.fort_kind[f] = RTW_LEGION;
        c.fort_value[f] = -1;
    }
    c.fort_kind[2] = RTW_DINARY;
    c.fort_value[2] = 3;
    const uint8_t draw[6] = {0, 1, 2, 3, 4, 5};
    uint8_t wall[6];
    rtw_arrange_wall(&c, draw, wall);
    const uint8_t want[6] = {2, 0, 1, 3, 4, 5};
    assert_memory_equal(wall, want, 6);
}

/* RW-4, RTW-P1 as the rulebook words them, two passes and no shortcut: the reference that
 * rtw_arrange_wall (one pass) must match. */
static void reference_wall(const rtw_cards *c, const uint8_t draw[6], uint8_t wall[6])
{
    int hi = -1, lo = -1;
    for (int i = 5; i >= 0; i--) /* the highest positive, nearest the right end */
        if (c->fort_value[draw[i]] > 0 &&
            (hi < 0 || c->fort_value[draw[i]] > c->fort_value[draw[hi]]))
            hi = i;
    for (int i = 0; i < 6; i++) /* the lowest positive, nearest the left end */
        if (c->fort_value[draw[i]] > 0 &&
            (lo < 0 || c->fort_value[draw[i]] < c->fort_value[draw[lo]]))
            lo = i;
    if (hi < 0) {
        memcpy(wall, draw, 6);
        return;
    }
    int n = 0;
    wall[n++] = draw[lo];
    for (int i = 0; i < 6; i++)
        if (i != hi && i != lo)
            wall[n++] = draw[i];
    if (hi != lo)
        wall[n++] = draw[hi];
}

/* RW-4, RTW-P1: the wall of 6 random forts of random card sets (few values, so many ties, and
 * sometimes no positive fort or a lone one) is the reference's. */
static void test_rw4_wall_order_matches_the_reference(void **unused)
{
    (void)unused;
    rp_rng rng;
    rp_rng_seed(&rng, 44, 4);
    for (int trial = 0; trial < 20000; trial++) {
        rtw_cards c;
        memset(&c, 0, sizeof c);
        for (int f = 0; f < RTW_FORTS; f++) {
            c.fort_kind[f] = rp_rng_below(&rng, 3) ? RTW_DINARY : RTW_LEGION;
            int v = 1 + (int)rp_rng_below(&rng, trial % 2 ? 3 : 30);
            c.fort_value[f] = (int8_t)(c.fort_kind[f] == RTW_LEGION ? -v : v);
        }
        uint8_t draw[6], wall[6], want[6];
        for (int i = 0; i < 6; i++)
            draw[i] = (uint8_t)rp_rng_below(&rng, RTW_FORTS);
        rtw_arrange_wall(&c, draw, wall);
        reference_wall(&c, draw, want);
        assert_memory_equal(wall, want, 6);
    }
}

/* RW-5: a clan places any warrior of its hand: for every hand of the nine kinds, the legal
 * placements are its kinds in ascending order, planning and after a Zvord (legal_actions copies
 * a hand's list from a table the preprocessor writes). */
static void test_rw5_every_hand_lists_its_kinds(void **unused)
{
    (void)unused;
    rtw_state s;
    rp_test_init(G, &s, "players=2 seed=3");
    for (int phase = RTW_PLAN; phase <= RTW_ZVORD_PLACE; phase++)
        for (unsigned hand = 0; hand <= ALL_WARRIORS; hand++) {
            s.phase = (uint8_t)phase;
            s.actor = (uint8_t)(hand % 2);
            s.hand[s.actor] = (uint16_t)hand;
            rp_action got[RP_MAX_LEGAL], want[RTW_KINDS];
            int n = 0;
            for (int k = 0; k < RTW_KINDS; k++)
                if (hand & (1u << k))
                    want[n++] = RTW_A_PLACE + (rp_action)k;
            assert_int_equal(G->legal_actions(&s, got), n);
            assert_memory_equal(got, want, (size_t)n * sizeof *got);
        }
}

/* RW-5: each player draws 7, places 6 face down one after another; the 7th is set aside;
 * nobody sees another clan's placement (observe_action shows only that one was made). */
static void test_rw5_planning_is_hidden(void **unused)
{
    (void)unused;
    rtw_state s;
    rp_test_init(G, &s, "players=2 seed=3");
    assert_int_equal(s.phase, RTW_PLAN);
    assert_int_equal(G->current_player(&s), 0);
    assert_int_equal(__builtin_popcount(s.hand[0]), 7);
    assert_int_equal(__builtin_popcount(s.hand[1]), 7);
    assert_int_equal(num_legal(&s), 7);
    for (int i = 0; i < 6; i++) {
        rp_action a[RP_MAX_LEGAL];
        int n = G->legal_actions(&s, a);
        assert_int_equal(n, 7 - i);
        assert_int_equal(G->observe_action(&s, a[0], 1), RTW_A_HIDDEN);
        assert_int_equal(G->observe_action(&s, a[0], 0), a[0]);
        G->apply(&s, a[0]);
    }
    assert_int_equal(G->current_player(&s), 1);
    assert_int_equal(s.hand[0], 0);
    uint16_t placed = 0;
    for (int i = 0; i < 6; i++)
        placed |= (uint16_t)(1u << s.slot[0][i]);
    assert_int_equal(__builtin_popcount(placed), 6);
    assert_int_equal(__builtin_popcount(s.drawn[0] & ~placed), 1); /* set aside */
    /* Red's view: Green's six slots are placed but hidden (null), its hand unnamed */
    cJSON *view = G->json->view(&s, 1);
    cJSON *green = cJSON_GetArrayItem(cJSON_GetObjectItem(view, "clans"), 0);
    cJSON *slots = cJSON_GetObjectItem(green, "slots");
    assert_int_equal(cJSON_GetArraySize(slots), 6);
    for (int i = 0; i < 6; i++)
        assert_true(cJSON_IsNull(cJSON_GetArrayItem(slots, i)));
    assert_null(cJSON_GetObjectItem(green, "hand"));
    assert_null(cJSON_GetObjectItem(green, "drawn"));
    cJSON_Delete(view);
    /* Green's own view names its slots in order */
    view = G->json->view(&s, 0);
    green = cJSON_GetArrayItem(cJSON_GetObjectItem(view, "clans"), 0);
    slots = cJSON_GetObjectItem(green, "slots");
    for (int i = 0; i < 6; i++)
        assert_string_equal(cJSON_GetArrayItem(slots, i)->valuestring, WORD[s.slot[0][i]]);
    cJSON_Delete(view);
}

/* RW-11: a neutral clan's six are random, in random order, and it never acts. */
static void test_rw11_neutral_places_six_at_random(void **unused)
{
    (void)unused;
    rtw_state s;
    rp_test_init(G, &s, "players=1 neutrals=2 seed=5");
    for (int c = 1; c < 3; c++) {
        uint16_t m = 0;
        for (int i = 0; i < 6; i++)
            m |= (uint16_t)(1u << s.slot[c][i]);
        assert_int_equal(__builtin_popcount(m), 6);
        assert_int_equal(s.drawn[c], m);
    }
    assert_int_equal(G->current_player(&s), 0);
}

/* ---- the rulebook's worked example (RW-6, RW-8, RW-10 Unwary) ---- */

/* "Green reveals a Ch'arriott. Red also reveals a Ch'ariott. Gold reveals an Arch'r. ... Gold
 * captures the Unwary Fort, and can thus keep the Ar'chr ... The other players who did not
 * capture the fort, keep all their warriors face-up." */
static void test_rulebook_worked_example(void **unused)
{
    (void)unused;
    rtw_state s;
    /* turn 1 gives the example's start: Green Arch'r, Red Dru'hid face up; Gold won with Laird */
    static const char *const plans[] = {"acqzhxd", "dcfzhxa", "lahzxcq"};
    setup(&s, "players=3", PLAIN_WALL, plans);
    assert_int_equal(s.forts[2], (1u << D1A) | (1u << UNWARY2));
    assert_int_equal(up(&s, 0), mask_of("aq")); /* Ch'ariott gone, Arch'r stays */
    assert_int_equal(up(&s, 1), mask_of("df")); /* Ch'ariott gone, Dru'hid stays */
    assert_int_equal(up(&s, 2), mask_of("ah")); /* Unwary kept the Arch'r */
    assert_int_equal(s.gone, 0);
    /* turn 3 stops at Green's Qween (RW-7): Red's Filchy or Gold's Horsie */
    assert_int_equal(s.phase, RTW_QWEEN_PICK);
    assert_int_equal(s.turn, 2);
    assert_true(legal(&s, "charm red"));
    assert_true(legal(&s, "charm gold"));
    assert_false(legal(&s, "charm green"));
    /* charming Horsie: Green 5 + 6 = 11, Gold 5 + 0, Red out (Filchy) */
    play(&s, "charm gold");
    assert_true(s.forts[0] & (1u << D3A));
    /* Gold's Horsie lost: she discards the Arch'r, the only other face-up warrior */
    assert_int_equal(s.phase, RTW_ZVORD_PLACE); /* turn 4: Green's Zvord */
    assert_int_equal(s.actor, 0);
    assert_int_equal(s.hand[0], mask_of("hx"));
    assert_true(s.forts[2] & (1u << D4A)); /* Gold: Horsie 6 + Zvord 4 beat Red's 8 */
}

/* ---- warriors ---- */

/* RW-6: a lone Ch'ariott is not discarded and counts 8. */
static void test_rw6_lone_chariott_counts(void **unused)
{
    (void)unused;
    rtw_state s;
    static const char *const plans[] = {"cdahxlq", "lfqdzah"};
    setup(&s, "players=2", PLAIN_WALL, plans);
    /* turn 1: Red's Laird 9 beats Green's Ch'ariott 8; turn 2: Green 8 + 3 beats Filchy */
    assert_int_equal(s.forts[1], 1u << D1A);
    assert_int_equal(s.phase, RTW_DRUHID_PICK);
    assert_int_equal(up(&s, 0), mask_of("cd"));
}

/* RW-7: a Qween with no rival warrior left (both Ch'ariotts wrecked) counts her own 2. */
static void test_rw7_qween_without_rival_counts_herself(void **unused)
{
    (void)unused;
    rtw_state s;
    static const char *const plans[] = {"qdahxlz", "cfdzahx", "cfdzahx"};
    setup(&s, "players=3", PLAIN_WALL, plans);
    assert_int_equal(s.forts[0], 1u << D1A); /* 2 against 0 and 0 */
    assert_int_equal(up(&s, 1), mask_of("f"));
    assert_int_equal(up(&s, 2), mask_of("f"));
}

/* RW-7, RW-15: the Qween takes the charmed warrior's value, which counts 0 for its clan; a
 * charmed Arch'r keeps its tie power; RW-19: Zvord re-places even without capturing. */
static void test_rw15_charmed_archr_keeps_tie_power(void **unused)
{
    (void)unused;
    rtw_state s;
    static const char *const plans[] = {"zqfahxl", "lafqdzh", "lfqdzah"};
    setup(&s, "players=3", PLAIN_WALL, plans);
    /* turn 1: Red and Gold tie on Laird 9: nobody captures; Green's Zvord re-places */
    assert_int_equal(s.gone, 1u << D1A);
    assert_int_equal(s.phase, RTW_ZVORD_PLACE);
    play(&s, "place qween");
    play(&s, "place filchy");
    play(&s, "place archr");
    play(&s, "place horsie"); /* the Axx goes last by itself */
    assert_int_equal(s.slot[0][5], RTW_AXX);
    /* turn 2: Green's Qween may charm Red's Arch'r or Gold's Filchy */
    assert_int_equal(s.phase, RTW_QWEEN_PICK);
    play(&s, "charm red");
    /* Green 4 + 5 = 9 ties Red 9 + 0; Red revealed the (charmed) Arch'r: Red captures */
    assert_int_equal(s.forts[1], 1u << UNWARY2);
    assert_int_equal(s.forts[0], 0);
    assert_int_equal(up(&s, 1), mask_of("af")); /* Unwary kept Arch'r (5 < 9), + turn 3 */
    assert_int_equal(s.phase, RTW_QWEEN_PICK);  /* turn 3: Gold's Qween */
    assert_int_equal(s.actor, 2);
}

/* RW-14: a neutral's Qween counts for the cancellation: two Qweens, no powers. */
static void test_rw14_neutral_qween_cancels(void **unused)
{
    (void)unused;
    rtw_state s;
    static const char *const plans[] = {"qdahxlz", "qfdzah"};
    setup(&s, "players=1 neutrals=1", PLAIN_WALL, plans);
    /* 2 against 2: a tie, the fort is discarded */
    assert_int_equal(s.gone, 1u << D1A);
    assert_int_equal(s.forts[0] | s.forts[1], 0);
    assert_int_equal(up(&s, 0), mask_of("qd"));
    assert_int_equal(up(&s, 1), mask_of("qf"));
}

/* RW-11: a neutral's Qween has no power (else she would take Green's Arch'r and win). */
static void test_rw11_neutral_qween_has_no_power(void **unused)
{
    (void)unused;
    rtw_state s;
    static const char *const plans[] = {"adqzhxl", "fcqdzah", "qcdzah"};
    setup(&s, "players=2 neutrals=1", PLAIN_WALL, plans);
    assert_int_equal(s.forts[0], 1u << D1A);
    assert_int_equal(s.forts[2], 0);
    assert_int_equal(s.phase, RTW_DRUHID_PICK);
}

/* RW-8: a clan that revealed Filchy cannot capture even with the highest total. */
static void test_rw8_filchy_drops_out(void **unused)
{
    (void)unused;
    rtw_state s;
    static const char *const plans[] = {"lfdqzah", "lfcqdza", "fhcqdza"};
    setup(&s, "players=3", PLAIN_WALL, plans);
    /* turn 2: Green 10 and Red 10 revealed Filchy; Gold's 7 captures the Unwary */
    assert_int_equal(s.forts[2], 1u << UNWARY2);
    assert_int_equal(up(&s, 2), mask_of("f")); /* Unwary kept Filchy; Ch'ariott wrecked */
    assert_int_equal(s.phase, RTW_DRUHID_PICK);
    assert_int_equal(s.actor, 0);
}

/* RW-8: "clans that revealed Filchy drop out. The highest total captures the current fort",
 * even a total of 0: under a card set whose Laird counts 0 (RW-2: cards= sets any strength
 * 0..30), Green's Laird alone against Red's Filchy takes the first fort. */
static void test_rw8_a_lone_total_of_0_captures(void **unused)
{
    (void)unused;
    rtw_state s;
    static const char *const plans[] = {"lqdzahf", "fqdzahl"};
    setup(&s,
          "players=2 cards=1,2,3,4,5,6,7,8,0/"
          "u2,s4,t8,l-1,l-2,l-2,l-3,d1,d1,d3,d3,d4,d4,d5,d5,d6,d6,d6",
          PLAIN_WALL, plans);
    assert_int_equal(s.cards.strength[RTW_LAIRD], 0);
    assert_true(s.forts[0] & (1u << D1A)); /* turn 1: Laird 0 against Filchy */
}

/* RW-8: tied clans that both revealed Arch'r: the tie remains, the fort is discarded. */
static void test_rw8_two_archrs_tie(void **unused)
{
    (void)unused;
    rtw_state s;
    static const char *const plans[] = {"adqzhxl", "afqdzhx"};
    setup(&s, "players=2", PLAIN_WALL, plans);
    assert_int_equal(s.gone, 1u << D1A);
    assert_int_equal(up(&s, 1), mask_of("af")); /* warriors stay */
    assert_int_equal(s.phase, RTW_DRUHID_PICK);
}

/* RW-9 Dru'hid: take any fort of The Wall; the leftmost takes its place. */
static void test_rw9_druhid_takes_any_fort(void **unused)
{
    (void)unused;
    rtw_state s;
    static const char *const plans[] = {"dfqzahx", "fdqzahx"};
    setup(&s, "players=2", PLAIN_WALL, plans);
    assert_int_equal(s.phase, RTW_DRUHID_PICK);
    assert_int_equal(num_legal(&s), 6);
    play(&s, "take 6");
    assert_int_equal(s.forts[0], 1u << D6A);
    assert_int_equal(s.phase, RTW_DRUHID_PICK); /* turn 2: Red's Dru'hid */
    assert_int_equal(s.actor, 1);
    const uint8_t want[6] = {RTW_NONE, UNWARY2, D3A, D4A, D5A, D1A};
    assert_memory_equal(s.wall, want, 6);
    assert_false(legal(&s, "take 1"));
}

/* RW-13: in the variant, the forts left of the one taken slide one place right. */
static void test_rw13_vogel_druhid_slides(void **unused)
{
    (void)unused;
    rtw_state s;
    static const char *const plans[] = {"dfqzahx", "fdqzahx"};
    setup(&s, "players=2 variant=vogel", PLAIN_WALL, plans);
    play(&s, "take 4");
    assert_int_equal(s.forts[0], 1u << D4A);
    const uint8_t want[6] = {RTW_NONE, D1A, UNWARY2, D3A, D5A, D6A};
    assert_memory_equal(s.wall, want, 6);
}

/* RW-13: in the variant an uncaptured fort stays; the rightmost is discarded. */
static void test_rw13_vogel_tie_keeps_fort(void **unused)
{
    (void)unused;
    rtw_state s;
    static const char *const plans[] = {"ldqzahx", "lfqdzah"};
    setup(&s, "players=2 variant=vogel", PLAIN_WALL, plans);
    /* turn 1: Laird against Laird; turn 2: Green 12 against Filchy */
    assert_int_equal(s.gone, 1u << D6A);
    assert_int_equal(s.phase, RTW_DRUHID_PICK);
    const uint8_t want[6] = {RTW_NONE, D1A, UNWARY2, D3A, D4A, D5A};
    assert_memory_equal(s.wall, want, 6);
    play(&s, "take 2");
    assert_true(s.forts[0] & (1u << D1A));
}

/* RW-19: in the variant the fort stays also when nobody could capture (all Filchy). */
static void test_rw19_vogel_all_filchy_keeps_fort(void **unused)
{
    (void)unused;
    rtw_state s;
    static const char *const plans[] = {"fxqdzah", "fdqzahx"};
    setup(&s, "players=2 variant=vogel", PLAIN_WALL, plans);
    /* turn 2: Green 1 + 7 beats Red 1 + 3 and takes the fort that stayed: D1A */
    assert_int_equal(s.phase, RTW_AXX_PICK);
    assert_int_equal(s.forts[0], 1u << D1A);
    assert_int_equal(s.gone, 1u << D6A);
    const uint8_t want[6] = {RTW_NONE, RTW_NONE, UNWARY2, D3A, D4A, D5A};
    assert_memory_equal(s.wall, want, 6);
}

/* RW-9 Axx: the capturer may keep Axx face up ... */
static void test_rw9_axx_kept(void **unused)
{
    (void)unused;
    rtw_state s;
    static const char *const plans[] = {"xdqzahl", "fxqdzah"};
    setup(&s, "players=2", PLAIN_WALL, plans);
    assert_int_equal(s.phase, RTW_AXX_PICK);
    assert_true(legal(&s, "keep axx") && legal(&s, "drop axx"));
    play(&s, "keep axx");
    /* turn 2: Green 7 + 3 beats Red 1 + 7: Green's Dru'hid decides */
    assert_int_equal(up(&s, 0), mask_of("xd"));
    assert_int_equal(s.phase, RTW_DRUHID_PICK);
}

/* ... or discard him with the others. */
static void test_rw9_axx_dropped(void **unused)
{
    (void)unused;
    rtw_state s;
    static const char *const plans[] = {"xdqzahl", "fxqdzah"};
    setup(&s, "players=2", PLAIN_WALL, plans);
    play(&s, "drop axx");
    /* turn 2: Green 3 loses to Red 1 + 7: Red's Axx decides */
    assert_int_equal(up(&s, 0), mask_of("d"));
    assert_int_equal(s.phase, RTW_AXX_PICK);
    assert_int_equal(s.actor, 1);
}

/* RW-11: a neutral always keeps its Axx. */
static void test_rw11_neutral_keeps_axx(void **unused)
{
    (void)unused;
    rtw_state s;
    static const char *const plans[] = {"fdqzahx", "xfqdza"};
    setup(&s, "players=1 neutrals=1", PLAIN_WALL, plans);
    assert_int_equal(s.forts[1], 1u << D1A);
    assert_int_equal(up(&s, 1), mask_of("xf"));
    assert_int_equal(s.phase, RTW_DRUHID_PICK);
}

/* RW-9 Horsie: a clan that revealed her and did not capture discards one face-up warrior
 * other than Horsie (its choice, in seat order, RW-6). */
static void test_rw9_horsie_discards_another(void **unused)
{
    (void)unused;
    rtw_state s;
    static const char *const plans[] = {"lfhdqza", "lfhcqdz", "lfacqdz"};
    setup(&s, "players=3", PLAIN_WALL, plans);
    /* turn 3: Green 16 and Red 16 tie (Gold 15): both Horsies lost */
    assert_int_equal(s.phase, RTW_HORSIE_PICK);
    assert_int_equal(s.actor, 0);
    assert_false(legal(&s, "discard horsie"));
    play(&s, "discard filchy");
    assert_int_equal(up(&s, 0), mask_of("lh"));
    assert_int_equal(s.actor, 1);
    assert_true(legal(&s, "discard laird") && legal(&s, "discard filchy"));
    assert_false(legal(&s, "discard horsie"));
    play(&s, "discard laird");
    /* turn 4: Ch'ariotts wreck; Green 15 + 3 captures with the Dru'hid */
    assert_int_equal(up(&s, 1), mask_of("fh"));
    assert_int_equal(up(&s, 2), mask_of("lfa"));
    assert_int_equal(s.phase, RTW_DRUHID_PICK);
}

/* RW-9 Horsie: with no other face-up warrior she discards herself. */
static void test_rw9_horsie_alone_discards_herself(void **unused)
{
    (void)unused;
    rtw_state s;
    static const char *const plans[] = {"hdqzaxl", "lfqdzah"};
    setup(&s, "players=2", PLAIN_WALL, plans);
    assert_int_equal(up(&s, 0), mask_of("d"));
    assert_int_equal(s.forts[1], 1u << D1A);
}

/* ---- forts ---- */

/* RW-10, RW-16 Unwary: the capturer keeps its face-up warrior of lowest printed strength. */
static void test_rw16_unwary_keeps_weakest(void **unused)
{
    (void)unused;
    rtw_state s;
    static const char *const plans[] = {"lhfqdza", "lfdqzah"};
    setup(&s, "players=2", PLAIN_WALL, plans);
    /* turn 2: Green 9 + 6 captures the Unwary with Laird and Horsie face up: keeps Horsie */
    assert_int_equal(s.forts[0], 1u << UNWARY2);
    assert_int_equal(up(&s, 0), mask_of("hf"));
    assert_int_equal(s.phase, RTW_DRUHID_PICK);
    assert_int_equal(s.actor, 1);
}

/* RW-10 Signal: every clan discards a face-up warrior, the others by choice in seat order;
 * RTW-P2: the capturer's own discard spares the Axx it revealed. */
static void test_rw10_signal_everyone_discards(void **unused)
{
    (void)unused;
    rtw_state s;
    static const char *const plans[] = {"lxdqzah", "lfcqdza", "ldcqfza"};
    setup(&s, "players=3", SIGNAL_WALL, plans);
    assert_int_equal(s.forts[0], 1u << SIGNAL4);
    assert_int_equal(s.phase, RTW_SIGNAL_PICK);
    assert_int_equal(s.actor, 1);
    assert_int_equal(up(&s, 0), mask_of("x")); /* RTW-P2: Laird went, Axx stays */
    play(&s, "discard laird");
    assert_int_equal(s.actor, 2);
    play(&s, "discard druhid");
    assert_int_equal(s.phase, RTW_AXX_PICK);
    play(&s, "keep axx");
    /* turn 3: Ch'ariotts wreck; Green's Axx 7 + Dru'hid 3 beats Gold's 9 */
    assert_int_equal(up(&s, 1), mask_of("f"));
    assert_int_equal(up(&s, 2), mask_of("l"));
    assert_int_equal(up(&s, 0), mask_of("xd"));
    assert_int_equal(s.phase, RTW_DRUHID_PICK);
}

/* RW-10 Signal: "Even if you capture this fort with Axx, you will have to discard him if you
 * have no other face-up warriors." */
static void test_rw10_signal_takes_lone_axx(void **unused)
{
    (void)unused;
    rtw_state s;
    const uint8_t wall[6] = {SIGNAL4, LEG1, D5A, LEG2A, D5B, D6A};
    static const char *const plans[] = {"xdqzahl", "dfqzahx"};
    setup(&s, "players=2", wall, plans);
    assert_int_equal(s.forts[0], 1u << SIGNAL4);
    assert_int_equal(up(&s, 0), mask_of("d")); /* the Axx went; turn 2's Dru'hid */
    assert_int_equal(up(&s, 1), mask_of("f")); /* Red's only warrior went */
    assert_int_equal(s.phase, RTW_DRUHID_PICK);
}

/* RW-10 Signal "every clan ... discards one face-up warrior if it has any", and RW-11: a
 * neutral clan is one of them, "when made to discard they discard their weakest warrior"
 * (issue 48: exempting neutrals passed every test before this one). */
static void test_rw10_rw11_signal_makes_a_neutral_discard_its_weakest(void **unused)
{
    (void)unused;
    rtw_state s;
    static const char *const plans[] = {"alfqdzh", "adfqzhl", "azfqdh"};
    setup(&s, "players=2 neutrals=1", SIGNAL_WALL, plans);
    /* turn 1: all three reveal Arch'r 5: nobody captures, Fort-Dinary 1 goes and the warriors
     * stay (RW-8); turn 2: Green's Arch'r + Laird 14 takes the Signal (Red 8, the neutral 9);
     * Green's own discard is made, Red chooses */
    assert_int_equal(s.forts[0], 1u << SIGNAL4);
    assert_int_equal(s.phase, RTW_SIGNAL_PICK);
    assert_int_equal(s.actor, 1);
    assert_int_equal(up(&s, 2), mask_of("az"));
    cJSON *events = events_of(&s, "discard druhid", RP_SPECTATOR);
    expect_text(events, "signal", 0, "Signal Fort: Red discards Dru'hid 3.");
    expect_text(events, "signal", 1,
                "Signal Fort: Gold (neutral) discards Zvord 4."); /* its weakest */
    cJSON_Delete(events);
}

/* RW-20 (and RTW-P3): "Horsie's penalty belongs to the turn she was revealed: a clan that
 * revealed Horsie and did not capture still discards one face-up warrior for her even if the
 * Signal Fort already made it discard Horsie herself". */
static void test_rw20_horsie_after_signal_took_her(void **unused)
{
    (void)unused;
    rtw_state s;
    static const char *const plans[] = {"lhdqzaf", "lxfqdza"};
    setup(&s, "players=2", SIGNAL_WALL, plans);
    /* turn 2: Red 9 + 7 captures the Signal against Green 9 + 6 */
    assert_int_equal(s.phase, RTW_SIGNAL_PICK);
    assert_int_equal(s.actor, 0);
    play(&s, "discard horsie");
    cJSON *events = events_of(&s, "drop axx", 0);
    expect_text(events, "horsie", 0, "Green's Horsie lost the turn: Green discards Laird 9.");
    cJSON_Delete(events);
    play(&s, "drop axx");
    /* Horsie lost: Green must still discard another warrior, the Laird */
    assert_int_equal(up(&s, 0), mask_of("d"));
    assert_int_equal(s.phase, RTW_DRUHID_PICK);
}

/* RW-20: "... (and discards nothing if it has no face-up warrior left)": the Signal took
 * Green's lone Horsie, so her penalty finds nothing to discard, and the clan's next warrior is
 * untouched. */
static void test_rw20_horsie_with_nothing_left_discards_nothing(void **unused)
{
    (void)unused;
    rtw_state s;
    static const char *const plans[] = {"lhdqzaf", "fxdqzah"};
    char last[32];
    setup_round_before_last(&s, "players=2", 1, SIGNAL_WALL, NULL, plans, last, sizeof last);
    cJSON *events = events_of(&s, last, RP_SPECTATOR);
    /* turn 1: Green's Laird takes Fort-Dinary 1; turn 2: Red 1 + 7 takes the Signal */
    expect_text(events, "capture", 1, "Red has the highest total, 8, and captures Signal 4.");
    expect_text(events, "signal", 0,
                "Signal Fort: every clan with a face-up warrior discards one, Red first.");
    expect_text(events, "signal", 1, "Signal Fort: Red discards Filchy 1.");
    expect_text(events, "signal", 2, "Signal Fort: Green discards Horsie 6.");
    expect_text(events, "turn", 0, "Red to act: keep its Axx face up or drop it.");
    cJSON_Delete(events);
    play(&s, last);
    assert_int_equal(s.phase, RTW_AXX_PICK);
    assert_int_equal(up(&s, 0), 0);
    events = events_of(&s, "keep axx", RP_SPECTATOR);
    const cJSON *horsie = nth_event(events, "horsie", 0);
    assert_string_equal(text_of(horsie), "Green's Horsie lost the turn, but Green has no "
                                         "face-up warrior left to discard (RW-20).");
    assert_int_equal(seat_of(horsie), 0);
    expect_cards(horsie, "");
    cJSON_Delete(events);
    play(&s, "keep axx");
    /* turn 3: Green's Dru'hid is face up, nothing was taken from it; Red 7 + 3 captures */
    assert_int_equal(up(&s, 0), mask_of("d"));
    assert_int_equal(s.capturer, 1);
    assert_int_equal(s.phase, RTW_DRUHID_PICK);
}
/* RW-10, RW-17 Tax-Collector's: the capturer pays one of its other forts (a Legion too);
 * RW-12: after the sixth turn all warriors return and round 2 begins. */
static void test_rw17_tax_pays_another_fort(void **unused)
{
    (void)unused;
    rtw_state s;
    const uint8_t wall[6] = {D1A, LEG1, D3A, LEG2A, D4A, TAX8};
    static const char *const plans[] = {"lfdcaxh", "fahlzcd"};
    setup(&s, "players=2", wall, plans);
    assert_int_equal(s.phase, RTW_TAX_PICK);
    assert_int_equal(s.forts[0], (1u << D1A) | (1u << LEG2A) | (1u << TAX8));
    assert_int_equal(s.forts[1], (1u << LEG1) | (1u << D3A) | (1u << D4A));
    assert_true(legal(&s, "pay dinary1"));
    assert_true(legal(&s, "pay legion-2"));
    assert_false(legal(&s, "pay tax8"));
    play(&s, "pay legion-2");
    assert_int_equal(s.phase, RTW_AXX_PICK);
    play(&s, "keep axx");
    assert_int_equal(s.forts[0], (1u << D1A) | (1u << TAX8));
    assert_true(s.gone & (1u << LEG2A));
    /* RW-12 */
    assert_int_equal(s.round, 1);
    assert_int_equal(s.phase, RTW_PLAN);
    for (int c = 0; c < 2; c++) {
        assert_int_equal(s.up[c], 0);
        assert_int_equal(__builtin_popcount(s.hand[c]), 7);
    }
}

/* RW-17: the capturer pays one of its other forts, one action per distinct card (the lowest
 * id of it): for random holdings under the default cards (twins such as the Fort-Dinary 6s)
 * and a card set of few values (long runs of one card), rtw_tax_choices, which skips a card's
 * run of ids, agrees with comparing each fort with every one chosen before. */
static void test_rw17_tax_choices_match_the_reference(void **unused)
{
    (void)unused;
    rtw_state s;
    rp_test_init(G, &s, "players=2 seed=3");
    rtw_cards few = *rtw_default_cards();
    for (int f = 0; f < RTW_FORTS; f++) /* the same kinds, values 1 or 2 (Legions -1, -2) */
        few.fort_value[f] = (int8_t)((few.fort_value[f] < 0 ? -1 : 1) * (1 + (f % 5 == 4)));
    for (int f = 1; f < RTW_FORTS; f++) /* canonical order: nearest zero first within a kind */
        for (int g = f; g > 0 && few.fort_kind[g] == few.fort_kind[g - 1] &&
                        abs(few.fort_value[g]) < abs(few.fort_value[g - 1]);
             g--) {
            int8_t v = few.fort_value[g];
            few.fort_value[g] = few.fort_value[g - 1];
            few.fort_value[g - 1] = v;
        }
    rp_error err;
    assert_int_equal(rtw_check_cards(&few, "few", &err), RP_OK);
    /* and a set whose first two forts are one card (ids 0 and 1: the lowest id a twin has) */
    rtw_cards twins = few;
    twins.fort_kind[1] = twins.fort_kind[0];
    twins.fort_value[1] = twins.fort_value[0];
    assert_int_equal(rtw_check_cards(&twins, "twins", &err), RP_OK);
    rp_rng rng;
    rp_rng_seed(&rng, 17, 17);
    for (int trial = 0; trial < 30000; trial++) {
        s.cards = trial % 3 == 2 ? twins : trial % 3 ? few : *rtw_default_cards();
        s.capturer = (int8_t)(trial % 2);
        s.captured = (uint8_t)rp_rng_below(&rng, RTW_FORTS);
        s.forts[s.capturer] = (rp_rng_next(&rng) & ALL_FORTS) | (1u << s.captured);
        uint32_t want = 0;
        for (int f = 0; f < RTW_FORTS; f++) {
            if (f == s.captured || !(s.forts[s.capturer] & (1u << f)))
                continue;
            bool dup = false;
            for (int o = 0; o < f; o++)
                dup |= ((want >> o) & 1) && same_fort(&s.cards, f, o);
            if (!dup)
                want |= 1u << f;
        }
        assert_int_equal(rtw_tax_choices(&s), want);
    }
}

/* A card set read from a state (binary or text) is checked whole: a fort of none of the kinds
 * RW-3 and RW-10 name (Unwary, Signal, Tax-Collector's, Legion, Fort-Dinary) is refused. */
static void test_rw10_unknown_fort_kind_is_refused(void **unused)
{
    (void)unused;
    rtw_cards cards = *rtw_default_cards();
    rp_error err = {{0}};
    cards.fort_kind[RTW_FORTS - 1] = RTW_FORT_KINDS;
    assert_true(rtw_check_cards(&cards, "cards", &err) < 0);
    assert_non_null(strstr(err.msg, "unknown kind"));
    cards.fort_kind[RTW_FORTS - 1] = RTW_FORT_KINDS - 1;
    assert_int_equal(rtw_check_cards(&cards, "cards", &err), RP_OK);
}

/* RW-17: with no other fort the capturer discards the Tax-Collector's itself. */
static void test_rw17_tax_alone_is_discarded(void **unused)
{
    (void)unused;
    rtw_state s;
    char opts[RP_OPTION_TEXT + 32];
    snprintf(opts, sizeof opts, "players=2 cards=%s", GOOD_VALUE);
    /* GOOD_VALUE's forts: u2 s4 t1 l-1 l-2 l-2 l-3 d2 d3 d3 d4 d4 d5 d5 d6 d6 d6 d7 */
    const uint8_t wall[6] = {2, 3, 8, 10, 12, 17}; /* tax 1 (lowest) first, d7 last */
    static const char *const plans[] = {"lfqzahx", "fdqzahx"};
    char last[32];
    setup_round_before_last(&s, opts, 1, wall, NULL, plans, last, sizeof last);
    cJSON *events = events_of(&s, last, RP_SPECTATOR);
    expect_text(events, "tax", 0,
                "Tax-Collector's Fort: Green holds no other fort and discards "
                "the Tax-Collector's Fort itself.");
    cJSON_Delete(events);
    play(&s, last);
    assert_int_equal(s.forts[0], 0);
    assert_true(s.gone & (1u << 2));
    assert_int_equal(s.phase, RTW_DRUHID_PICK);
    assert_int_equal(s.actor, 1);
}

/* RW-17: "A neutral discards its lowest other" fort; of two at the same value, the first in
 * the canonical order (docs/rules/rush-the-wall.md, Neutral clans): the Signal 4 before a
 * Fort-Dinary 4. Green takes turns 1, 2 and 4; the neutral Red turns 3 and 5, then the Tax with
 * its Axx against Green's Filchy. */
static void test_rw17_neutral_pays_the_first_of_its_lowest(void **unused)
{
    (void)unused;
    rtw_state s;
    const uint8_t wall[6] = {D1A, D3A, D5A, D6A, D6B, TAX8};
    const uint32_t held[2] = {0, (1u << SIGNAL4) | (1u << D4A)};
    static const char *const plans[] = {"lcaqhfd", "fdzqlx"};
    setup_round(&s, "players=1 neutrals=1", 2, wall, held, plans);
    assert_true(s.forts[1] & (1u << TAX8));
    assert_true(s.gone & (1u << SIGNAL4));
    assert_true(s.forts[1] & (1u << D4A));
}

/* RW-10, RW-18: a player clan that captures its third Legion wins at once. */
static void test_rw18_three_legions_win(void **unused)
{
    (void)unused;
    rtw_state s;
    const uint8_t wall[6] = {D1A, LEG1, D3A, D4A, D5A, D6A};
    const uint32_t held[2] = {(1u << LEG2A) | (1u << LEG2B), 0};
    static const char *const plans[] = {"lcqdzah", "fdqzahx"};
    setup_round(&s, "players=2", 2, wall, held, plans);
    assert_int_equal(G->current_player(&s), RP_TERMINAL);
    assert_int_equal(s.winner, 0);
    assert_int_equal(s.turn, 1);
    double r[2];
    G->returns(&s, r);
    assert_true(r[0] == 1.0 && r[1] == 0.0); /* even though Green's points are negative */
    assert_int_equal(num_legal(&s), 0);
}

/* RW-18: a neutral holding three Legions does not win, and play goes on. */
static void test_rw18_neutral_three_legions_play_on(void **unused)
{
    (void)unused;
    rtw_state s;
    const uint8_t wall[6] = {D1A, LEG1, D3A, D4A, D5A, D6A};
    const uint32_t held[2] = {0, (1u << LEG2A) | (1u << LEG2B)};
    static const char *const plans[] = {"lfdqzah", "qxfdza"};
    setup_round(&s, "players=1 neutrals=1", 2, wall, held, plans);
    assert_int_equal(s.forts[1], (1u << LEG2A) | (1u << LEG2B) | (1u << LEG1));
    assert_int_equal(s.winner, -1);
    assert_int_equal(s.phase, RTW_DRUHID_PICK);
}

/* RW-19: Zvord re-places the hidden warriors even when he was discarded by the capture; the
 * others see only that placements were made. */
static void test_rw19_zvord_reorders_after_capture(void **unused)
{
    (void)unused;
    rtw_state s;
    static const char *const plans[] = {"zqdahxl", "fdqzahx"};
    setup(&s, "players=2", PLAIN_WALL, plans);
    assert_int_equal(s.forts[0], 1u << D1A);
    assert_int_equal(up(&s, 0), 0);
    assert_int_equal(s.phase, RTW_ZVORD_PLACE);
    assert_int_equal(s.hand[0], mask_of("qdahx"));
    rp_action a[RP_MAX_LEGAL];
    assert_int_equal(G->legal_actions(&s, a), 5);
    assert_int_equal(G->observe_action(&s, a[0], 1), RTW_A_HIDDEN);
    play(&s, "place axx");
    play(&s, "place horsie");
    play(&s, "place archr");
    play(&s, "place druhid");
    assert_int_equal(s.slot[0][1], RTW_AXX);
    assert_int_equal(s.slot[0][2], RTW_HORSIE);
    assert_int_equal(s.slot[0][3], RTW_ARCHR);
    assert_int_equal(s.slot[0][4], RTW_DRUHID);
    assert_int_equal(s.slot[0][5], RTW_QWEEN);
    /* turn 2 reveals the Axx as placed: 7 beats 3 and takes the Unwary, which keeps the Axx
     * (the weakest and only face-up warrior), so no Axx choice is asked */
    assert_true(s.forts[0] & (1u << UNWARY2));
}

/* RW-11: a neutral's Zvord does not re-place; its slots stay as laid. */
static void test_rw11_neutral_zvord_no_effect(void **unused)
{
    (void)unused;
    rtw_state s;
    static const char *const plans[] = {"fdqzahx", "zfqdah"};
    setup(&s, "players=1 neutrals=1", PLAIN_WALL, plans);
    assert_int_equal(s.forts[1], 1u << D1A);
    assert_int_equal(s.phase, RTW_DRUHID_PICK); /* turn 2, no Zvord phase came */
    const uint8_t laid[6] = {RTW_ZVORD, RTW_FILCHY, RTW_QWEEN, RTW_DRUHID, RTW_ARCHR, RTW_HORSIE};
    assert_memory_equal(s.slot[1], laid, 6);
}

/* ---- game end (RW-12) ---- */

static double share_of(rtw_state *s, const char *options, uint32_t f0, uint32_t f1, uint32_t f2,
                       int seat)
{
    rp_test_init(G, s, options);
    s->phase = RTW_OVER;
    s->forts[0] = f0;
    s->forts[1] = f1;
    s->forts[2] = f2;
    double r[RP_MAX_PLAYERS];
    G->returns(s, r);
    return r[seat];
}

/* RW-12: highest total; then most forts; then highest single fort; else a shared win.
 * RTW-P6: a neutral (which cannot win) is not ranked. */
static void test_rw12_tie_breaks(void **unused)
{
    (void)unused;
    rtw_state s;
    const char *two = "players=2";
    assert_true(share_of(&s, two, 1u << D6A, 1u << D5A, 0, 0) == 1.0);
    assert_true(share_of(&s, two, 1u << D6A, (1u << D1A) | (1u << D5A), 0, 1) == 1.0);
    assert_true(share_of(&s, two, (1u << D1A) | (1u << D6A), (1u << D3A) | (1u << D4A), 0, 0) ==
                1.0);
    assert_true(share_of(&s, two, 1u << D3A, 1u << D3B, 0, 0) == 0.5);
    assert_true(share_of(&s, two, 0, 0, 0, 1) == 0.5);
    const char *neutral = "players=2 neutrals=1";
    assert_true(share_of(&s, neutral, 1u << D1A, 0, (1u << D6A) | (1u << D6B), 0) == 1.0);
}

/* ---- options in effect, turns (issue 18) ---- */

/* The options a state is played under, as records and the protocol print them. */
static void config_text_of(const rtw_state *s, const char *options, char *text, size_t size)
{
    rp_config base, cfg;
    rp_config_default(G, &base);
    char copy[512];
    snprintf(copy, sizeof copy, "%s", options);
    rp_error err = {{0}};
    for (char *tok = strtok(copy, " "); tok; tok = strtok(NULL, " "))
        assert_int_equal(rp_config_set(G, &base, tok, &err), RP_OK);
    rp_config_of(G, s, &base, &cfg);
    assert_true(rp_config_to_text(G, &cfg, text, size) > 0);
}

/* Issue 18 item 1, RTW-P5: a solo game gets one neutral clan, and its options say so, so a
 * record replays as the game that was played; the variant and a custom card set are reported
 * too, and a state loaded from notation reports what its notation implies. */
static void test_rtw_p5_config_of_reports_the_neutrals_in_play(void **unused)
{
    (void)unused;
    rtw_state s, again;
    char text[1024];
    rp_test_init(G, &s, "players=1 seed=9");
    config_text_of(&s, "players=1 seed=9", text, sizeof text);
    assert_string_equal(text, "players=1 seed=9 neutrals=1 variant=standard");
    rp_test_init(G, &again, text);
    assert_memory_equal(&again, &s, sizeof s);

    char opts[RP_OPTION_TEXT + 64], want[RP_OPTION_TEXT + 64];
    snprintf(opts, sizeof opts, "players=3 neutrals=1 variant=vogel seed=4 cards=%s", GOOD_VALUE);
    rp_test_init(G, &s, opts);
    config_text_of(&s, opts, text, sizeof text);
    snprintf(want, sizeof want, "players=3 seed=4 neutrals=1 variant=vogel cards=%s", GOOD_VALUE);
    assert_string_equal(text, want);
    rp_test_init(G, &again, text);
    assert_memory_equal(&again, &s, sizeof s);

    /* loaded from notation: the notation's clans, not the caller's defaults */
    rp_test_init(G, &s, "players=2 neutrals=2 seed=6");
    char notation[RP_STATE_TEXT];
    assert_true(G->state_to_text(&s, notation, sizeof notation) > 0);
    rp_test_load(G, &again, notation);
    config_text_of(&again, "seed=6", text, sizeof text);
    assert_string_equal(text, "players=2 seed=6 neutrals=2 variant=standard");
}

/* The rulebook counts six turns a round, one per fort: 18 in a game; planning belongs to the
 * first turn of its round. */
static void test_turn_number_counts_rulebook_turns(void **unused)
{
    (void)unused;
    rtw_state s;
    rp_test_init(G, &s, "players=2 seed=3");
    assert_int_equal(G->turn_number(&s), 1);
    static const char *const plans[] = {"acqzhxd", "dcfzhxa", "lahzxcq"};
    setup(&s, "players=3", PLAIN_WALL, plans); /* waits in turn 3 for Green's Qween */
    assert_int_equal(G->turn_number(&s), 3);
    setup_round(&s, "players=2", 2, PLAIN_WALL, NULL, (const char *const[]){"dfqzahx", "fdqzahx"});
    assert_int_equal(G->turn_number(&s), 7); /* round 2, turn 1: Green's Dru'hid */
    rp_rng rng;
    rp_rng_seed(&rng, 1, 1);
    while (G->current_player(&s) != RP_TERMINAL)
        rp_test_random_step(G, &s, &rng);
    assert_int_equal(G->turn_number(&s), 18);
}

/* ---- notation ---- */

/* Issue 43: a warrior is accepted as the hand shows it ("Dru'hid 3": the name with its
 * apostrophe, any case) as well as in notation, and both name the same action. */
static void test_warriors_typed_as_the_hand_shows_them(void **unused)
{
    (void)unused;
    rtw_state s;
    rp_test_init(G, &s, "");
    for (int k = 0; k < RTW_KINDS; k++) {
        char shown[64], typed[80], plain[80];
        snprintf(shown, sizeof shown, "%s", warrior_name[k]);
        snprintf(typed, sizeof typed, "place %s", shown);
        snprintf(plain, sizeof plain, "place %s", warrior_word[k]);
        rp_action a, b;
        rp_error err = {{0}};
        if (G->action_from_text(&s, typed, &a, &err) < 0)
            fail_msg("'%s' refused: %s", typed, err.msg);
        assert_int_equal(G->action_from_text(&s, plain, &b, &err), RP_OK);
        assert_int_equal(a, b);
    }
    rp_action a;
    rp_error err = {{0}};
    assert_true(G->action_from_text(&s, "place dru'hidd", &a, &err) < 0);
    assert_non_null(strstr(err.msg, "unknown warrior 'druhidd'"));
}

/* A notation edited (the first `from` replaced by `to`) is refused, the message naming
 * `expect`, and the state is untouched. */
typedef struct text_edit {
    const char *from, *to, *expect;
} text_edit;

static void expect_edits_refused(const char *text, const text_edit *edits, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char bad[RP_STATE_TEXT];
        const char *at = strstr(text, edits[i].from);
        if (!at)
            fail_msg("edit %zu: '%s' not in %s", i, edits[i].from, text);
        snprintf(bad, sizeof bad, "%.*s%s%s", (int)(at - text), text, edits[i].to,
                 at + strlen(edits[i].from));
        rtw_state s, before;
        memset(&s, 0x3C, sizeof s);
        before = s;
        rp_error err = {{0}};
        assert_true(G->state_from_text(&s, bad, &err) < 0);
        if (!strstr(err.msg, edits[i].expect))
            fail_msg("edit %zu: message '%s' lacks '%s'", i, err.msg, edits[i].expect);
        assert_memory_equal(&s, &before, sizeof s);
    }
}

/* Full-state notation round-trips; inconsistent texts are refused with a reason and change
 * nothing. */
static void test_state_text_validates(void **unused)
{
    (void)unused;
    rtw_state s;
    static const char *const plans[] = {"acqzhxd", "dcfzhxa", "lahzxcq"};
    setup(&s, "players=3", PLAIN_WALL, plans);
    char text[RP_STATE_TEXT];
    assert_true(G->state_to_text(&s, text, sizeof text) > 0);
    rtw_state back;
    rp_test_load(G, &back, text);
    assert_memory_equal(&back, &s, sizeof s);
    static const text_edit edits[] = {
        {"gone=-", "gone=dinary3b", "not all accounted for"},
        {"gone=-", "gone=dinary4a", "a fort is in two places"},
        {"phase=qween", "phase=druhid", "did not reveal"},
        {"capturer=-", "capturer=red", "decided only after the Qween"},
        {"players=3", "players=2", "expected the field rng= here, found 'gold'"},
        {"cards=default",
         "cards=1,1,3,4,5,6,7,8,9/u2,s4,t8,l-1,l-2,l-2,l-3,d1,d1,d3,d3,d4,d4,d5,d5,d6,d6,d6",
         "same strength"},
        /* one text per state: the notation never spells out the default set */
        {"cards=default", "cards=" DEFAULT_SPELLED, "write 'default'"},
        {"turn=3", "turn=2", "should be"},
        {"rw1", "rtw1", "not a 'rw1' notation"},
        {"rw1", "rw2", "notation version 'rw2' is not read by this build"},
        {"wall=-,-,", "wall=-,", "5 items, expected 6"},
        {"deck=", "deck=dinary9,", "is not one of"},
        {"green=", "green=x/", "is not one of"},
        {"/unwary2,dinary1a/- ", "/unwary2,dinary1a ", "six parts"},
    };
    expect_edits_refused(text, edits, sizeof edits / sizeof *edits);
}

/* Issue 18 item 5: one spelling per state. Leading zeros or '+', doubled spaces, lists in
 * another order, capitals, trailing text: all refused with a reason, the state untouched. */
static void test_state_text_is_canonical(void **unused)
{
    (void)unused;
    rtw_state s;
    static const char *const plans[] = {"acqzhxd", "dcfzhxa", "lahzxcq"};
    setup(&s, "players=3", PLAIN_WALL, plans);
    char text[RP_STATE_TEXT];
    assert_true(G->state_to_text(&s, text, sizeof text) > 0);
    /* the documented field order, the generator last */
    static const char *const order[] = {
        "rw1 players=", " neutrals=", " variant=",  " cards=",    " round=", " turn=",   " phase=",
        " actor=",      " next=",     " capturer=", " captured=", " keep=",  " winner=", " deck=",
        " wall=",       " gone=",     " green=",    " red=",      " gold=",  " rng="};
    const char *at = text;
    for (size_t i = 0; i < sizeof order / sizeof *order; i++) {
        const char *next = strstr(at, order[i]);
        if (!next)
            fail_msg("field '%s' missing or out of order in %s", order[i], text);
        at = next + 1;
    }
    static const text_edit edits[] = {
        {"players=3", "players=03", "leading zero"},
        {"round=1", "round=+1", "not a whole number"},
        {" neutrals=", "  neutrals=", "one space"},
        {"phase=qween", "phase=Qween", "is not one of"},
        {"actor=green", "actor=Green", "is not one of"},
        /* Green drew archr chariott qween zvord horsie axx druhid: listed in warrior order */
        {"/qween,druhid,zvord,", "/druhid,qween,zvord,", "not the canonical spelling"},
        {"keep=-", "keep=-,-", "is not one of"},
        {"next=-", "next=1", "not the canonical spelling"},
    };
    expect_edits_refused(text, edits, sizeof edits / sizeof *edits);
    char bad[RP_STATE_TEXT + 1];
    memcpy(bad, text, strlen(text));
    memcpy(bad + strlen(text), " ", 2);
    rp_error err = {{0}};
    assert_true(G->state_from_text(&s, bad, &err) < 0);
    assert_non_null(strstr(err.msg, "after the last field"));
}

/* state_ok refuses broken structs with the reason, and the notation writer prints any bytes
 * without reading past a table (the debug check prints the broken state it stops on). */
static void test_state_ok_on_broken_states(void **unused)
{
    (void)unused;
    rtw_state s, good;
    static const char *const plans[] = {"acqzhxd", "dcfzhxa", "lahzxcq"};
    setup(&good, "players=3", PLAIN_WALL, plans);
    rp_error err = {{0}};
    assert_int_equal(G->state_ok(&good, &err), RP_OK);
    static const struct {
        size_t offset;
        uint8_t byte;
        const char *expect;
    } breaks[] = {
        {offsetof(rtw_state, phase), 42, "out of range"},
        {offsetof(rtw_state, clans), 9, "clans (RW-1)"},
        {offsetof(rtw_state, cards) + offsetof(rtw_cards, fort_kind) + 3, 7, "unknown kind"},
        {offsetof(rtw_state, slot) + 6 * 3, 1, "not in this game"},
        {offsetof(rtw_state, prev) + 2, RTW_AXX, "round 1 has no last round"},
        {offsetof(rtw_state, wall) + 5, D6B, "not drawn this round"},
        {offsetof(rtw_state, keep), 1, "keep: only set"},
    };
    for (size_t i = 0; i < sizeof breaks / sizeof *breaks; i++) {
        s = good;
        ((uint8_t *)&s)[breaks[i].offset] = breaks[i].byte;
        assert_true(G->state_ok(&s, &err) < 0);
        if (!strstr(err.msg, breaks[i].expect))
            fail_msg("break %zu: message '%s' lacks '%s'", i, err.msg, breaks[i].expect);
    }
    /* Out of range in the planning phase too, where no capture is pending: views and
     * observations name the capturer and its fort in every phase. */
    rp_test_init(G, &s, "players=2 seed=3");
    assert_int_equal(s.phase, RTW_PLAN);
    s.captured = 117;
    assert_true(G->state_ok(&s, &err) < 0);
    assert_non_null(strstr(err.msg, "captured: no fort 117"));
    s.captured = RTW_NONE;
    s.capturer = 5;
    assert_true(G->state_ok(&s, &err) < 0);
    assert_non_null(strstr(err.msg, "capturer: no clan 5"));
    rp_rng rng;
    rp_rng_seed(&rng, 8, 8);
    for (int i = 0; i < 200; i++) {
        for (size_t b = 0; b < sizeof s; b++)
            ((uint8_t *)&s)[b] = (uint8_t)rp_rng_next(&rng);
        if (i % 2)
            s.clans = (uint8_t)(i % 7); /* counts in and out of range */
        char text[RP_STATE_TEXT];
        assert_true(G->state_ok(&s, &err) < 0);
        G->state_to_text(&s, text, sizeof text);
    }
}

/* Forts alike in the card set get a, b, c... so each has one name in the notation. */
static void test_state_text_names_each_fort(void **unused)
{
    (void)unused;
    rtw_state s;
    rp_test_init(G, &s, "players=2 seed=3");
    char text[RP_STATE_TEXT];
    assert_true(G->state_to_text(&s, text, sizeof text) > 0);
    static const char *const names[RTW_FORTS] = {
        "unwary2",  "signal4",  "tax8",     "legion-1", "legion-2a", "legion-2b",
        "legion-3", "dinary1a", "dinary1b", "dinary3a", "dinary3b",  "dinary4a",
        "dinary4b", "dinary5a", "dinary5b", "dinary6a", "dinary6b",  "dinary6c"};
    char deck[512] = " deck=";
    for (int i = 0; i < RTW_FORTS; i++) {
        strcat(deck, names[s.deck[i]]);
        strcat(deck, i < RTW_FORTS - 1 ? "," : " ");
    }
    if (!strstr(text, deck))
        fail_msg("'%s' not in %s", deck, text);
}

/* ---- views, actions as data, secrets ---- */

/* Every string of a JSON tree is one word: lists are arrays, never packed into strings. */
static void check_no_packed_lists(const cJSON *item)
{
    for (; item; item = item->next) {
        if (cJSON_IsString(item) && strchr(item->valuestring, ' '))
            fail_msg("view string '%s' packs a list", item->valuestring);
        check_no_packed_lists(item->child);
    }
}

/* Issue 12: the view is plain data: arrays of card names, hidden slots null; the spectator
 * sees only what is public, a clan its own warriors too (compared with the referee's state). */
static void test_view_is_plain_data(void **unused)
{
    (void)unused;
    rtw_state s;
    static const char *const plans[] = {"acqzhxd", "dcfzhxa", "lahzxcq"};
    setup(&s, "players=3", PLAIN_WALL, plans); /* turn 3, Green's Qween to pick */
    for (int viewer = RP_SPECTATOR; viewer < 3; viewer++) {
        if (viewer == -1)
            continue;
        cJSON *v = G->json->view(&s, viewer);
        check_no_packed_lists(v);
        static const char *const viewers[] = {"green", "red", "gold"};
        assert_string_equal(cJSON_GetObjectItem(v, "viewer")->valuestring,
                            viewer < 0 ? "spectator" : viewers[viewer]);
        assert_string_equal(cJSON_GetObjectItem(v, "to_act")->valuestring, "green");
        assert_int_equal(cJSON_GetObjectItem(v, "current")->valueint, 3);
        cJSON *wall = cJSON_GetObjectItem(v, "wall");
        assert_true(cJSON_IsNull(cJSON_GetArrayItem(wall, 0)));
        assert_string_equal(cJSON_GetArrayItem(wall, 2)->valuestring, "dinary3");
        cJSON *strengths = cJSON_GetObjectItem(cJSON_GetObjectItem(v, "cards"), "strengths");
        assert_int_equal(cJSON_GetObjectItem(strengths, "archr")->valueint, 5);
        cJSON *clan;
        int c = 0;
        cJSON_ArrayForEach (clan, cJSON_GetObjectItem(v, "clans")) {
            cJSON *slots = cJSON_GetObjectItem(clan, "slots");
            assert_int_equal(cJSON_GetArraySize(slots), 6);
            for (int i = 0; i < 6; i++) {
                cJSON *slot = cJSON_GetArrayItem(slots, i);
                if (i < 3 || viewer == c)
                    assert_string_equal(slot->valuestring, WORD[s.slot[c][i]]);
                else
                    assert_true(cJSON_IsNull(slot));
            }
            assert_true(cJSON_IsArray(cJSON_GetObjectItem(clan, "face_up")));
            assert_true(cJSON_IsArray(cJSON_GetObjectItem(clan, "forts")));
            if (viewer == c)
                assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(clan, "drawn")), 7);
            else
                assert_null(cJSON_GetObjectItem(clan, "drawn"));
            c++;
        }
        cJSON *gold = cJSON_GetArrayItem(cJSON_GetObjectItem(v, "clans"), 2);
        assert_string_equal(cJSON_GetArrayItem(cJSON_GetObjectItem(gold, "forts"), 0)->valuestring,
                            "unwary2");
        cJSON_Delete(v);
    }
}

/* Actions as data: a client builds its input from these without parsing notation. */
static void expect_action_json(const rtw_state *s, const char *move, const char *json)
{
    cJSON *a = rp_action_cjson(G, s, action_of(s, move));
    assert_non_null(a);
    cJSON_DeleteItemFromObject(a, "id");
    char *text = cJSON_PrintUnformatted(a);
    if (strcmp(text, json) != 0)
        fail_msg("%s as data: %s, expected %s", move, text, json);
    free(text);
    cJSON_Delete(a);
}

static void test_actions_as_data(void **unused)
{
    (void)unused;
    rtw_state s;
    static const char *const worked[] = {"acqzhxd", "dcfzhxa", "lahzxcq"};
    char last[32];
    setup_round_before_last(&s, "players=3", 1, PLAIN_WALL, NULL, worked, last, sizeof last);
    expect_action_json(&s, "place chariott",
                       "{\"text\":\"place chariott\",\"kind\":\"place\","
                       "\"warrior\":\"chariott\",\"slot\":6}");
    play(&s, last);
    expect_action_json(&s, "charm gold",
                       "{\"text\":\"charm gold\",\"kind\":\"charm\","
                       "\"clan\":\"gold\",\"warrior\":\"horsie\"}");
    static const char *const druhid[] = {"dfqzahx", "fdqzahx"};
    setup(&s, "players=2", PLAIN_WALL, druhid);
    expect_action_json(&s, "take 6",
                       "{\"text\":\"take 6\",\"kind\":\"take\",\"position\":6,"
                       "\"fort\":\"dinary6\"}");
    static const char *const signal[] = {"lxdqzah", "lfcqdza", "ldcqfza"};
    setup(&s, "players=3", SIGNAL_WALL, signal);
    expect_action_json(&s, "discard laird",
                       "{\"text\":\"discard laird\",\"kind\":\"discard\","
                       "\"warrior\":\"laird\",\"reason\":\"signal\"}");
    play(&s, "discard laird");
    play(&s, "discard druhid");
    expect_action_json(&s, "keep axx",
                       "{\"text\":\"keep axx\",\"kind\":\"keep\",\"warrior\":\"axx\"}");
    static const char *const horsie[] = {"lfhdqza", "lfhcqdz", "lfacqdz"};
    setup(&s, "players=3", PLAIN_WALL, horsie);
    expect_action_json(&s, "discard filchy",
                       "{\"text\":\"discard filchy\",\"kind\":"
                       "\"discard\",\"warrior\":\"filchy\",\"reason\":\"horsie\"}");
    const uint8_t tax_wall[6] = {D1A, LEG1, D3A, LEG2A, D4A, TAX8};
    static const char *const tax[] = {"lfdcaxh", "fahlzcd"};
    setup(&s, "players=2", tax_wall, tax);
    expect_action_json(&s, "pay legion-2",
                       "{\"text\":\"pay legion-2\",\"kind\":\"pay\",\"fort\":\"legion-2\"}");
    /* what another clan sees of a placement: a placement, no warrior */
    rp_test_init(G, &s, "players=2 seed=3");
    cJSON *a = rp_action_cjson(G, &s, RTW_A_HIDDEN);
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(a, "warrior")));
    assert_int_equal(cJSON_GetObjectItem(a, "slot")->valueint, 1);
    cJSON_Delete(a);
}

/* Moves are read whatever their case and spacing. */
static void test_moves_forgive_case_and_spacing(void **unused)
{
    (void)unused;
    rtw_state s;
    rp_test_init(G, &s, "players=2 seed=3");
    int k = __builtin_ctz(s.hand[0]);
    char move[64], loud[64];
    snprintf(move, sizeof move, "place %s", WORD[k]);
    snprintf(loud, sizeof loud, "  PLACE\t%s ", NAME[k][0] == 'D' ? "DRUHID" : WORD[k]);
    for (char *c = loud; *c; c++)
        if (*c >= 'a' && *c <= 'z')
            *c = (char)(*c - 'a' + 'A');
    assert_int_equal(action_of(&s, loud), action_of(&s, move));
}

/* explain_illegal says why, in the game's terms. */
static void expect_explained(const rtw_state *s, rp_action action, const char *want)
{
    char why[256];
    rp_explain_illegal(G, s, action, why, sizeof why);
    if (!strstr(why, want))
        fail_msg("explanation '%s' lacks '%s'", why, want);
}

static rp_action parse_only(const rtw_state *s, const char *move)
{
    rp_action a;
    rp_error err = {{0}};
    if (G->action_from_text(s, move, &a, &err) < 0)
        fail_msg("'%s': %s", move, err.msg);
    assert_false(rp_is_legal(G, s, a));
    return a;
}

static void test_explain_illegal(void **unused)
{
    (void)unused;
    rtw_state s;
    char why[256];
    rp_test_init(G, &s, "players=2 seed=3");
    rp_action legal[RP_MAX_LEGAL];
    assert_true(G->legal_actions(&s, legal) > 0);
    assert_true(G->explain_illegal(&s, legal[0], why, sizeof why) < 0); /* it is legal */
    static const char *const worked[] = {"acqzhxd", "dcfzhxa", "lahzxcq"};
    char last[32];
    setup_round_before_last(&s, "players=3", 1, PLAIN_WALL, NULL, worked, last, sizeof last);
    expect_explained(&s, parse_only(&s, "take 4"), "Gold must now place a warrior face down");
    expect_explained(&s, parse_only(&s, "place laird"), "your Laird is already placed at slot 1");
    expect_explained(&s, parse_only(&s, "place filchy"),
                     "Filchy is not among the warriors you may place now (Qween 2, Ch'ariott 8)");
    expect_explained(&s, RTW_A_HIDDEN, "name the warrior you place");
    play(&s, last);
    expect_explained(&s, parse_only(&s, "charm green"), "not one of your own");
    expect_explained(&s, parse_only(&s, "charm blue"), "there is no Blue clan in this game");
    static const char *const druhid[] = {"dfqzahx", "fdqzahx"};
    setup(&s, "players=2", PLAIN_WALL, druhid);
    play(&s, "take 6"); /* turn 2: Red's Dru'hid */
    expect_explained(&s, parse_only(&s, "take 1"), "wall position 1 was fought over already");
    static const char *const signal[] = {"lxdqzah", "lfcqdza", "ldcqfza"};
    setup(&s, "players=3", SIGNAL_WALL, signal);
    expect_explained(&s, parse_only(&s, "discard axx"),
                     "Axx is not face up (face up: Filchy 1, Laird 9)");
    static const char *const horsie[] = {"lfhdqza", "lfhcqdz", "lfacqdz"};
    setup(&s, "players=3", PLAIN_WALL, horsie);
    expect_explained(&s, parse_only(&s, "discard horsie"), "she goes only when she is alone");
    const uint8_t tax_wall[6] = {D1A, LEG1, D3A, LEG2A, D4A, TAX8};
    static const char *const tax[] = {"lfdcaxh", "fahlzcd"};
    setup(&s, "players=2", tax_wall, tax);
    expect_explained(&s, parse_only(&s, "pay tax8"), "you hold no other (RW-17)");
    expect_explained(&s, parse_only(&s, "pay dinary6"),
                     "you do not hold dinary6 (you may pay: legion-2, dinary1)");
    expect_explained(&s, parse_only(&s, "keep axx"), "Green must now pay one of its other forts");
}

/* True when the JSON text names `word` as a string value (not as an object key). */
static bool json_names(const char *json, const char *word)
{
    char quoted[32];
    snprintf(quoted, sizeof quoted, "\"%s\"", word);
    for (const char *at = strstr(json, quoted); at; at = strstr(at + 1, quoted))
        if (at[strlen(quoted)] != ':')
            return true;
    return false;
}

/* secret_names against the referee's state: every name listed lies hidden in another clan
 * (a face-down slot, a hand, a warrior set aside) and is named nowhere in the viewer's view;
 * every hidden warrior the view names nowhere is listed; and the screen never shows one. */
static void check_secret_names(const rtw_state *s, int viewer)
{
    char secret[256];
    assert_true(G->secret_names(s, viewer, secret, sizeof secret) >= 0);
    char *view = rp_view_text(G, s, viewer, false);
    char *screen = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&screen, &len);
    G->render(s, viewer, f, false);
    fclose(f);
    int shown = s->phase == RTW_PLAN ? 0 : s->turn + 1;
    for (int k = 0; k < RTW_KINDS; k++) {
        bool hidden = false;
        for (int c = 0; c < s->clans; c++) {
            if (c == viewer || !(s->drawn[c] & (1u << k)))
                continue;
            bool turned_up = false;
            for (int i = 0; i < shown; i++)
                turned_up |= s->slot[c][i] == k;
            hidden |= !turned_up;
        }
        bool named = json_names(view, WORD[k]), listed = false;
        char words[256];
        snprintf(words, sizeof words, "%s", secret);
        for (char *w = strtok(words, " "); w; w = strtok(NULL, " "))
            listed |= strcmp(w, WORD[k]) == 0;
        if (listed && (named || !hidden))
            fail_msg("%s listed as secret to %d but %s", WORD[k], viewer,
                     named ? "the view names it" : "nothing hides it");
        if (hidden && !named && !listed)
            fail_msg("%s is hidden from %d and not in their view, but not listed", WORD[k], viewer);
        if (listed && strstr(screen, NAME[k]))
            fail_msg("the screen of %d shows the secret %s:\n%s", viewer, NAME[k], screen);
    }
    free(view);
    free(screen);
}

static void test_secret_names(void **unused)
{
    (void)unused;
    rtw_state s;
    rp_test_init(G, &s, "players=2 neutrals=1 seed=12");
    for (int i = 0; i < 3; i++) {
        rp_action a[RP_MAX_LEGAL];
        assert_true(G->legal_actions(&s, a) > 0);
        G->apply(&s, a[0]);
    }
    /* Red sees none of Green's or the neutral's warriors, only its own seven */
    char secret[256];
    assert_true(G->secret_names(&s, 1, secret, sizeof secret) >= 0);
    uint16_t others = (uint16_t)((s.drawn[0] | s.drawn[2]) & ~s.drawn[1]);
    char want[256] = "";
    for (int k = 0; k < RTW_KINDS; k++)
        if (others & (1u << k)) {
            strcat(want, want[0] ? " " : "");
            strcat(want, WORD[k]);
        }
    assert_string_equal(secret, want);
    for (int viewer = RP_SPECTATOR; viewer < 2; viewer++)
        if (viewer != -1)
            check_secret_names(&s, viewer);
    /* a buffer too small is refused */
    char tiny[2];
    if (want[0])
        assert_true(G->secret_names(&s, 1, tiny, sizeof tiny) < 0);
}

/* ---- events: exact narration of hand-built turns (issue 12) ---- */

/* The events of a move that hides nothing: every seat and the spectator are told the very
 * same events; returns the spectator's (caller deletes). */
static cJSON *public_events(const rtw_state *s, const char *move)
{
    cJSON *spectator = events_of(s, move, RP_SPECTATOR);
    for (int seat = 0; seat < s->players; seat++) {
        cJSON *mine = events_of(s, move, seat);
        if (!cJSON_Compare(mine, spectator, true)) {
            char *a = cJSON_PrintUnformatted(mine), *b = cJSON_PrintUnformatted(spectator);
            fail_msg("%s: seat %d is told\n%s\nthe spectator\n%s", move, seat, a, b);
        }
        cJSON_Delete(mine);
    }
    return spectator;
}

/* RW-5: a placement names the warrior to its clan only; the others and the spectator hear
 * that a warrior was placed face down at a slot; the seventh set aside likewise. */
static void test_events_rw5_placement_named_only_to_its_clan(void **unused)
{
    (void)unused;
    rtw_state s;
    rp_test_init(G, &s, "players=2 seed=3");
    for (int slot = 1; slot <= 6; slot++) {
        int k = __builtin_ctz(s.hand[0]);
        char move[32], mine[96], theirs[96];
        snprintf(move, sizeof move, "place %s", WORD[k]);
        snprintf(mine, sizeof mine, "Green places %s %d face down at slot %d.", NAME[k],
                 s.cards.strength[k], slot);
        snprintf(theirs, sizeof theirs, "Green places a warrior face down at slot %d.", slot);
        for (int viewer = RP_SPECTATOR; viewer < 2; viewer++) {
            if (viewer == -1)
                continue;
            cJSON *events = events_of(&s, move, viewer);
            const cJSON *place = nth_event(events, "place", 0);
            assert_int_equal(seat_of(place), 0);
            assert_false(reveals(place));
            assert_string_equal(text_of(place), viewer == 0 ? mine : theirs);
            expect_cards(place, viewer == 0 ? WORD[k] : "");
            if (slot < 6) {
                assert_int_equal(cJSON_GetArraySize(events), 1);
            } else {
                int aside = __builtin_ctz(s.hand[0] & ~(1u << k));
                char text[96];
                snprintf(text, sizeof text, "Green has placed six warriors and sets %s %d aside.",
                         NAME[aside], s.cards.strength[aside]);
                const cJSON *set = nth_event(events, "set-aside", 0);
                assert_string_equal(text_of(set), viewer == 0
                                                      ? text
                                                      : "Green has placed six "
                                                        "warriors and sets its seventh aside.");
                expect_cards(set, viewer == 0 ? WORD[aside] : "");
                expect_text(events, "turn", 0, "Red to act: place six warriors face down.");
                assert_int_equal(cJSON_GetArraySize(events), 3);
            }
            cJSON_Delete(events);
        }
        play(&s, move);
    }
}

/* The rulebook's worked example, narrated: every reveal of turns 1 to 3, the Ch'ariotts'
 * collision, the Arch'r's tie, the Unwary Fort, up to Green's Qween, told alike to every
 * seat but for Gold's own last placement. */
static void test_events_rulebook_worked_example(void **unused)
{
    (void)unused;
    rtw_state s;
    static const char *const plans[] = {"acqzhxd", "dcfzhxa", "lahzxcq"};
    char last[32];
    setup_round_before_last(&s, "players=3", 1, PLAIN_WALL, NULL, plans, last, sizeof last);
    cJSON *events = events_of(&s, last, RP_SPECTATOR);
    static const char *const kinds[] = {
        "place",   "set-aside", "attack", "reveal", "reveal", "reveal", "totals", "capture",
        "discard", "attack",    "reveal", "reveal", "reveal", "wreck",  "totals", "capture",
        "unwary",  "discard",   "attack", "reveal", "reveal", "reveal", "turn"};
    assert_int_equal(cJSON_GetArraySize(events), (int)(sizeof kinds / sizeof *kinds));
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
        assert_string_equal(
            cJSON_GetObjectItem(cJSON_GetArrayItem(events, (int)i), "kind")->valuestring, kinds[i]);
    expect_text(events, "attack", 0,
                "Round 1, turn 1: the clans attack Fort-Dinary 1 at position 1.");
    /* `attack`: "a turn begins" (docs/rules/rush-the-wall.md, What the game tells you), all
     * clans at once: no seat's act, and it names no clan */
    assert_null(cJSON_GetObjectItemCaseSensitive(nth_event(events, "attack", 0), "seat"));
    assert_null(cJSON_GetObjectItemCaseSensitive(nth_event(events, "attack", 0), "clan"));
    expect_text(events, "reveal", 0, "Green turns up Arch'r 5 at slot 1.");
    expect_text(events, "reveal", 1, "Red turns up Dru'hid 3 at slot 1.");
    expect_text(events, "reveal", 2, "Gold turns up Laird 9 at slot 1.");
    expect_text(events, "totals", 0, "Totals: Green 5, Red 3, Gold 9.");
    expect_text(events, "capture", 0, "Gold has the highest total, 9, and captures Fort-Dinary 1.");
    expect_text(events, "discard", 0, "Gold discards its face-up warriors: Laird 9.");
    expect_text(events, "reveal", 3, "Green turns up Ch'ariott 8 at slot 2.");
    expect_text(events, "wreck", 0,
                "Green and Red's Ch'ariotts collide: all are discarded before points are counted.");
    expect_text(events, "totals", 1, "Totals: Green 5, Red 3, Gold 5.");
    expect_text(events, "capture", 1,
                "Green and Gold tie at 5; Gold revealed an Arch'r this "
                "turn and wins the tie: Gold captures Unwary 2.");
    expect_text(events, "unwary", 0,
                "Unwary Fort: Gold keeps its weakest face-up warrior, Arch'r 5.");
    expect_text(events, "discard", 1, "Gold keeps Arch'r 5 face up; no other warrior to discard.");
    expect_text(events, "turn", 0, "Green to act: pick the rival warrior its Qween charms.");
    const cJSON *reveal = nth_event(events, "reveal", 2);
    assert_true(reveals(reveal));
    assert_int_equal(seat_of(reveal), 2);
    expect_cards(reveal, "laird");
    const cJSON *capture = nth_event(events, "capture", 1);
    assert_string_equal(cJSON_GetObjectItem(capture, "fort")->valuestring, "unwary2");
    /* the seats hear the same story, but Gold hears its own last placement named */
    for (int seat = 0; seat < 3; seat++) {
        cJSON *mine = events_of(&s, last, seat);
        cJSON_DeleteItemFromArray(mine, 0);
        cJSON *rest = cJSON_Duplicate(events, true);
        cJSON_DeleteItemFromArray(rest, 0);
        if (seat == 2) { /* Gold's set-aside names its Qween */
            expect_text(mine, "set-aside", 0,
                        "Gold has placed six warriors and sets Qween 2 aside.");
            cJSON_DeleteItemFromArray(mine, 0);
            cJSON_DeleteItemFromArray(rest, 0);
        }
        assert_true(cJSON_Compare(mine, rest, true));
        cJSON_Delete(mine);
        cJSON_Delete(rest);
    }
    cJSON_Delete(events);
    play(&s, last);
    /* the Qween's charm, the turn's totals, the capture and the Horsie that lost */
    events = public_events(&s, "charm gold");
    expect_text(events, "charm", 0,
                "Green's Qween charms Gold's Horsie 6: she counts 6 for "
                "Green and it counts 0 for Gold this turn.");
    expect_cards(nth_event(events, "charm", 0), "qween,horsie");
    expect_text(events, "totals", 0, "Totals: Green 11, Red 4 (Filchy: cannot capture), Gold 5.");
    expect_text(events, "capture", 0,
                "Green has the highest total, 11, and captures Fort-Dinary 3.");
    expect_text(events, "discard", 0, "Green discards its face-up warriors: Qween 2, Arch'r 5.");
    expect_text(events, "horsie", 0, "Gold's Horsie lost the turn: Gold discards Arch'r 5.");
    expect_text(events, "capture", 1,
                "Gold has the highest total, 10, and captures Fort-Dinary 4.");
    expect_text(events, "zvord", 0,
                "Green's Zvord: Green takes back its 2 hidden warriors to place them again.");
    expect_text(events, "turn", 0, "Green to act: place its hidden warriors again (Zvord).");
    cJSON_Delete(events);
}

/* RW-8, RW-13, RW-19: how a tie breaks, or does not, in each variant. */
static void test_events_rw8_rw13_ties(void **unused)
{
    (void)unused;
    rtw_state s;
    char last[32];
    static const char *const archers[] = {"adqzhxl", "afqdzhx"};
    setup_round_before_last(&s, "players=2", 1, PLAIN_WALL, NULL, archers, last, sizeof last);
    cJSON *events = events_of(&s, last, RP_SPECTATOR);
    expect_text(events, "no-capture", 0,
                "Green and Red tie at 5 and more than one of them "
                "revealed an Arch'r: the tie remains, nobody captures; Fort-Dinary 1 is "
                "discarded and every warrior stays face up.");
    cJSON_Delete(events);
    static const char *const lairds[] = {"ldqzahx", "lfqdzah"};
    setup_round_before_last(&s, "players=2 variant=vogel", 1, PLAIN_WALL, NULL, lairds, last,
                            sizeof last);
    events = events_of(&s, last, RP_SPECTATOR);
    expect_text(events, "no-capture", 0,
                "Green and Red tie at 9: nobody captures; Fort-Dinary "
                "1 stays in The Wall for the next turn, Fort-Dinary 6 at the right end is "
                "discarded and the forts between slide one place right (Vogel variant).");
    expect_text(events, "attack", 1,
                "Round 1, turn 2: the clans attack Fort-Dinary 1 at position 2.");
    cJSON_Delete(events);
    static const char *const filchies[] = {"fxqdzah", "fdqzahx"};
    setup_round_before_last(&s, "players=2 variant=vogel", 1, PLAIN_WALL, NULL, filchies, last,
                            sizeof last);
    events = events_of(&s, last, RP_SPECTATOR);
    expect_text(events, "totals", 0,
                "Totals: Green 1 (Filchy: cannot capture), Red 1 (Filchy: cannot capture).");
    expect_text(events, "no-capture", 0,
                "Every clan revealed Filchy: nobody can capture; "
                "Fort-Dinary 1 stays in The Wall for the next turn, Fort-Dinary 6 at the right "
                "end is discarded and the forts between slide one place right (Vogel variant).");
    expect_text(events, "capture", 0,
                "Green has the highest total, 8, and captures Fort-Dinary 1.");
    cJSON_Delete(events);
}

/* RW-9, RW-13: the Dru'hid's pick, in each variant. */
static void test_events_rw9_druhid(void **unused)
{
    (void)unused;
    rtw_state s;
    static const char *const plans[] = {"dfqzahx", "fdqzahx"};
    setup(&s, "players=2", PLAIN_WALL, plans);
    cJSON *events = public_events(&s, "take 6");
    expect_text(events, "druhid", 0,
                "Green's Dru'hid takes Fort-Dinary 6 from position 6 "
                "instead; Fort-Dinary 1 takes its place.");
    expect_text(events, "discard", 0, "Green discards its face-up warriors: Dru'hid 3.");
    expect_text(events, "totals", 0, "Totals: Green 1 (Filchy: cannot capture), Red 4.");
    expect_text(events, "capture", 0, "Red has the highest total, 4, and captures Unwary 2.");
    expect_text(events, "turn", 0, "Red to act: pick the fort its Dru'hid takes.");
    cJSON_Delete(events);
    events = public_events(&s, "take 1");
    expect_text(events, "druhid", 0, "Green's Dru'hid keeps Fort-Dinary 1, the fort fought over.");
    cJSON_Delete(events);
    setup(&s, "players=2 variant=vogel", PLAIN_WALL, plans);
    events = public_events(&s, "take 4");
    expect_text(events, "druhid", 0,
                "Green's Dru'hid takes Fort-Dinary 4 from position 4 "
                "instead; the forts to its left slide one place right (Vogel variant).");
    cJSON_Delete(events);
}

/* RW-10, RW-17, RW-9, RW-12: the Tax-Collector's payment, the Axx kept, the round's end,
 * the next Wall and the draws: a clan's draw is named to that clan alone. */
static void test_events_rw17_tax_axx_round_end(void **unused)
{
    (void)unused;
    rtw_state s;
    const uint8_t wall[6] = {D1A, LEG1, D3A, LEG2A, D4A, TAX8};
    static const char *const plans[] = {"lfdcaxh", "fahlzcd"};
    setup(&s, "players=2", wall, plans);
    cJSON *events = public_events(&s, "pay legion-2");
    expect_text(events, "tax", 0, "Tax-Collector's Fort: Green pays Legion -2.");
    expect_text(events, "turn", 0, "Green to act: keep its Axx face up or drop it.");
    cJSON_Delete(events);
    play(&s, "pay legion-2");
    rtw_state after = s;
    play(&after, "keep axx");
    for (int viewer = RP_SPECTATOR; viewer < 2; viewer++) {
        if (viewer == -1)
            continue;
        events = events_of(&s, "keep axx", viewer);
        expect_text(events, "axx", 0, "Green keeps its Axx face up.");
        expect_text(events, "discard", 0,
                    "Green discards its face-up warriors (Arch'r 5) and keeps Axx 7.");
        expect_text(events, "round-end", 0,
                    "Round 1 ends: every warrior returns to its clan. "
                    "Fort points: Green 9, Red 6.");
        const cJSON *round = nth_event(events, "round", 0);
        assert_true(reveals(round));
        assert_non_null(strstr(text_of(round), "Round 2: six forts are drawn; The Wall, left "
                                               "to right, is "));
        for (int c = 0; c < 2; c++) {
            const cJSON *draw = nth_event(events, "draw", c);
            assert_true(reveals(draw));
            assert_int_equal(seat_of(draw), c);
            char words[128] = "", text[256];
            int n = snprintf(text, sizeof text, "%s shuffles its nine warriors and draws seven",
                             c ? "Red" : "Green");
            for (uint32_t m = after.drawn[c]; m; m &= m - 1) {
                int k = __builtin_ctz(m);
                strcat(words, words[0] ? "," : "");
                strcat(words, WORD[k]);
                if (viewer == c)
                    n += snprintf(text + n, sizeof text - (size_t)n, "%s%s %d",
                                  m == after.drawn[c] ? ": " : ", ", NAME[k],
                                  after.cards.strength[k]);
            }
            strcat(text, ".");
            assert_string_equal(text_of(draw), text);
            expect_cards(draw, viewer == c ? words : "");
        }
        expect_text(events, "turn", 0, "Green to act: place six warriors face down.");
        cJSON_Delete(events);
    }
}

/* RW-10, RW-18: the third Legion wins at once, for a player clan only. */
static void test_events_rw18_legions(void **unused)
{
    (void)unused;
    rtw_state s;
    char last[32];
    const uint8_t wall[6] = {D1A, LEG1, D3A, D4A, D5A, D6A};
    const uint32_t held[2] = {(1u << LEG2A) | (1u << LEG2B), 0};
    static const char *const plans[] = {"lcqdzah", "fdqzahx"};
    setup_round_before_last(&s, "players=2", 2, wall, held, plans, last, sizeof last);
    cJSON *events = events_of(&s, last, RP_SPECTATOR);
    expect_text(events, "legion", 0, "Green holds three Legion forts and wins at once (RW-18).");
    const cJSON *over = nth_event(events, "game-over", 0);
    assert_string_equal(text_of(over), "Game over: Green captured a third Legion fort and wins "
                                       "at once (RW-18).");
    assert_ptr_equal(over, cJSON_GetArrayItem(events, cJSON_GetArraySize(events) - 1));
    assert_string_equal(cJSON_GetObjectItem(over, "reason")->valuestring, "legions");
    cJSON_Delete(events);
    const uint32_t neutral_held[2] = {0, (1u << LEG2A) | (1u << LEG2B)};
    static const char *const neutral_plans[] = {"lfdqzah", "qxfdza"};
    setup_round_before_last(&s, "players=1 neutrals=1", 2, wall, neutral_held, neutral_plans, last,
                            sizeof last);
    events = events_of(&s, last, RP_SPECTATOR);
    expect_text(events, "legion", 0,
                "Red (neutral) holds three Legion forts, but a neutral "
                "clan cannot win; play goes on (RW-18).");
    assert_int_equal(count_events(events, "game-over"), 0);
    cJSON_Delete(events);
}

/* RW-19: the Zvord's re-placement is hidden like the planning; the last warrior goes by
 * itself. */
static void test_events_rw19_zvord(void **unused)
{
    (void)unused;
    rtw_state s;
    static const char *const plans[] = {"zqdahxl", "fdqzahx"};
    char last[32];
    setup_round_before_last(&s, "players=2", 1, PLAIN_WALL, NULL, plans, last, sizeof last);
    cJSON *events = events_of(&s, last, RP_SPECTATOR);
    expect_text(events, "zvord", 0,
                "Green's Zvord: Green takes back its 5 hidden warriors to place them again.");
    expect_text(events, "turn", 0, "Green to act: place its hidden warriors again (Zvord).");
    cJSON_Delete(events);
    play(&s, last);
    static const int kinds[] = {RTW_AXX, RTW_HORSIE, RTW_ARCHR};
    for (int i = 0; i < 3; i++) {
        char move[32], text[128];
        snprintf(move, sizeof move, "place %s", WORD[kinds[i]]);
        cJSON *mine = events_of(&s, move, 0), *theirs = events_of(&s, move, 1);
        snprintf(text, sizeof text,
                 "Green places a warrior face down at slot %d (placing again after Zvord).", i + 2);
        expect_text(theirs, "place", 0, text);
        expect_cards(nth_event(theirs, "place", 0), "");
        snprintf(text, sizeof text,
                 "Green places %s %d face down at slot %d (placing again after Zvord).",
                 NAME[kinds[i]], s.cards.strength[kinds[i]], i + 2);
        expect_text(mine, "place", 0, text);
        expect_cards(nth_event(mine, "place", 0), WORD[kinds[i]]);
        cJSON_Delete(mine);
        cJSON_Delete(theirs);
        play(&s, move);
    }
    cJSON *mine = events_of(&s, "place druhid", 0), *theirs = events_of(&s, "place druhid", 1);
    expect_text(mine, "place", 1,
                "Green's last hidden warrior, Qween 2, goes face down to slot 6.");
    expect_text(theirs, "place", 1, "Green's last hidden warrior goes face down to slot 6.");
    expect_cards(nth_event(theirs, "place", 1), "");
    cJSON_Delete(mine);
    cJSON_Delete(theirs);
}

/* RW-7, RW-11, RW-14, RW-6: when a Qween has no power, and the Ch'ariotts' collision. */
static void test_events_qweens_and_chariotts(void **unused)
{
    (void)unused;
    rtw_state s;
    char last[32];
    static const char *const cancel[] = {"qdahxlz", "qfdzah"};
    setup_round_before_last(&s, "players=1 neutrals=1", 1, PLAIN_WALL, NULL, cancel, last,
                            sizeof last);
    cJSON *events = events_of(&s, last, RP_SPECTATOR);
    expect_text(events, "qween", 0,
                "Green and Red revealed Qweens: their powers cancel and "
                "each counts her own strength.");
    expect_text(events, "reveal", 1, "Red (neutral) turns up Qween 2 at slot 1.");
    assert_int_equal(seat_of(nth_event(events, "reveal", 1)), -1);
    cJSON_Delete(events);
    static const char *const neutral[] = {"adqzhxl", "fcqdzah", "qcdzah"};
    setup_round_before_last(&s, "players=2 neutrals=1", 1, PLAIN_WALL, NULL, neutral, last,
                            sizeof last);
    events = events_of(&s, last, RP_SPECTATOR);
    expect_text(events, "qween", 0,
                "Gold's Qween has no power, Gold being a neutral clan "
                "(RW-11): she counts her own strength.");
    cJSON_Delete(events);
    static const char *const alone[] = {"qdahxlz", "cfdzahx", "cfdzahx"};
    setup_round_before_last(&s, "players=3", 1, PLAIN_WALL, NULL, alone, last, sizeof last);
    events = events_of(&s, last, RP_SPECTATOR);
    expect_text(events, "wreck", 0,
                "Red and Gold's Ch'ariotts collide: all are discarded before points are counted.");
    expect_text(events, "qween", 0,
                "Green's Qween finds no rival warrior to charm and counts her own strength.");
    expect_text(events, "capture", 0,
                "Green has the highest total, 2, and captures Fort-Dinary 1.");
    cJSON_Delete(events);
}

/* RW-12: the game's end is told with its score and how ties broke; the screen's last line
 * says the same. Round 3 is all ties (both clans plan alike), so the forts held decide. */
static void expect_final_score(const uint8_t wall[6], uint32_t green, uint32_t red,
                               const char *want)
{
    rtw_state s;
    char last[32];
    const uint32_t held[2] = {green, red};
    static const char *const plans[] = {"fqdaclz", "fqdaclh"};
    setup_round_before_last(&s, "players=2", 3, wall, held, plans, last, sizeof last);
    for (int viewer = RP_SPECTATOR; viewer < 2; viewer++) {
        if (viewer == -1)
            continue;
        cJSON *events = events_of(&s, last, viewer);
        assert_int_equal(count_events(events, "attack"), 6);
        assert_int_equal(count_events(events, "reveal"), 12);
        assert_int_equal(count_events(events, "capture"), 0);
        expect_text(events, "round-end", 0,
                    "Round 3 ends: every warrior returns to its clan. "
                    "Fort points: Green 7, Red 7.");
        const cJSON *over = cJSON_GetArrayItem(events, cJSON_GetArraySize(events) - 1);
        assert_string_equal(text_of(over), want);
        cJSON_Delete(events);
    }
    play(&s, last);
    char screen[8192];
    FILE *f = fmemopen(screen, sizeof screen, "w");
    G->render(&s, RP_SPECTATOR, f, false);
    fclose(f);
    char line[300];
    snprintf(line, sizeof line, "%s\n", want);
    assert_non_null(strstr(screen, line));
}

static void test_events_rw12_game_over_score(void **unused)
{
    (void)unused;
    const uint8_t wall1[6] = {D1B, D3B, D4B, D5A, D5B, D6B};
    expect_final_score(wall1, 1u << D6A | 1u << D1A, 1u << D4A | 1u << D3A,
                       "Game over: Green and Red tie at 7 points and 2 forts; Green wins on "
                       "the highest fort, 6 to 4.");
    const uint8_t wall2[6] = {D3B, D4B, D5A, D5B, D6B, D6C};
    expect_final_score(wall2, 1u << D6A | 1u << D1A, 1u << D4A | 1u << D1B | 1u << UNWARY2,
                       "Game over: Red and Green tie at 7 points; Red wins the tie on forts, "
                       "3 to 2.");
    const uint8_t wall3[6] = {D3A, D3B, D4A, D4B, D5A, D6C};
    expect_final_score(wall3, 1u << D6A | 1u << D1A, 1u << D6B | 1u << D1B,
                       "Game over: Green and Red share the win: 7 points, 2 forts and a "
                       "highest fort of 6 each.");
}

/* ---- determinize, render ---- */

/* Determinizing for Red keeps what Red knows (its own cards, everything revealed) and
 * resamples Green's hidden slots among the kinds Red has not seen. */
static void test_determinize_keeps_what_is_seen(void **unused)
{
    (void)unused;
    rtw_state s;
    static const char *const plans[] = {"acqzhxd", "dcfzhxa", "lahzxcq"};
    setup(&s, "players=3", PLAIN_WALL, plans);
    rp_rng rng;
    rp_rng_seed(&rng, 4, 4);
    bool changed = false;
    for (int i = 0; i < 50; i++) {
        rtw_state d = s;
        G->determinize(&d, 1, &rng);
        assert_memory_equal(d.slot[1], s.slot[1], 6);
        assert_memory_equal(d.slot[0], s.slot[0], 3); /* revealed: turns 1-3 */
        assert_int_equal(d.up[0], s.up[0]);
        rp_error err = {{0}};
        if (rtw_check(&d, &err) < 0)
            fail_msg("determinized state unsound: %s", err.msg);
        changed |= memcmp(d.slot[0] + 3, s.slot[0] + 3, 3) != 0;
    }
    assert_true(changed);
}

/* The renderer names the clans, says the card values are assumptions, ends with the viewer's
 * hand and whose turn it is; colour only on request; the spectator sees no hidden warrior. */
static void test_render(void **unused)
{
    (void)unused;
    rtw_state s;
    rp_test_init(G, &s, "players=2 seed=8");
    char buf[8192];
    FILE *f = fmemopen(buf, sizeof buf, "w");
    assert_non_null(f);
    G->render(&s, 0, f, false);
    fclose(f);
    assert_non_null(strstr(buf, "assumptions"));
    assert_non_null(strstr(buf, "Green"));
    assert_non_null(strstr(buf, "Your hand: "));
    assert_non_null(strstr(buf, "\nYou are to act: place a warrior face down (the seventh is "
                                "set aside) in slot 1.\n"));
    assert_null(strchr(buf, '\033'));
    f = fmemopen(buf, sizeof buf, "w");
    G->render(&s, 0, f, true);
    fclose(f);
    assert_non_null(strchr(buf, '\033'));
    /* off its turn a seat still sees its own hand, as its view shows it (issue 45: the
     * information state is built from these screens) */
    f = fmemopen(buf, sizeof buf, "w");
    G->render(&s, 1, f, false);
    fclose(f);
    assert_non_null(strstr(buf, "Your hand: "));
    f = fmemopen(buf, sizeof buf, "w");
    G->render(&s, RP_SPECTATOR, f, false);
    fclose(f);
    assert_non_null(strstr(buf, "(spectator)"));
    assert_null(strstr(buf, "Your hand"));
    for (int k = 0; k < RTW_KINDS; k++)
        assert_null(strstr(buf, NAME[k]));
}

/* ---- property runs ---- */

/* The events of one action for every viewer, compared with the referee's state and action:
 * the same kinds in the same order for everyone (how much is told never depends on who
 * watches); another clan's placement, set-aside or draw names no warrior; and every reveal
 * turn is told, one "reveal" per clan after each "attack". Returns the attacks told. */
/* The warriors of clan c that lie hidden in s: drawn, not turned up. */
static uint16_t hidden_of(const rtw_state *s, int c)
{
    uint16_t hidden = s->drawn[c];
    for (int i = 0; s->phase != RTW_PLAN && i <= s->turn; i++)
        hidden &= (uint16_t) ~(1u << s->slot[c][i]);
    return hidden;
}

static int check_events_fair(const rtw_state *s, rp_action action)
{
    char kinds[2][1024] = {"", ""};
    int attacks = 0;
    rtw_state after = *s;
    G->apply(&after, action);
    for (int viewer = RP_SPECTATOR; viewer < s->players; viewer++) {
        if (viewer == -1)
            continue;
        cJSON *events = G->json->events(s, action, viewer);
        assert_non_null(events);
        char *mine = kinds[viewer != RP_SPECTATOR];
        mine[0] = '\0';
        const cJSON *e;
        cJSON_ArrayForEach (e, events) {
            const char *kind = cJSON_GetObjectItem(e, "kind")->valuestring;
            strncat(mine, kind, 1000 - strlen(mine));
            strncat(mine, " ", 1000 - strlen(mine));
            const cJSON *clan = cJSON_GetObjectItem(e, "clan");
            bool private_kind =
                !strcmp(kind, "place") || !strcmp(kind, "set-aside") || !strcmp(kind, "draw");
            static const char *const clans[RTW_MAX_CLANS] = {"green", "red", "gold", "blue"};
            int owner = -1;
            for (int c = 0; clan && c < RTW_MAX_CLANS; c++)
                if (!strcmp(clan->valuestring, clans[c]))
                    owner = c;
            if (private_kind && owner < 0)
                fail_msg("%s event to viewer %d names no clan", kind, viewer);
            if (private_kind && owner != viewer) {
                if (cJSON_GetObjectItem(e, "cards"))
                    fail_msg("%s's %s event names cards to %d", clan->valuestring, kind, viewer);
                /* placements and set-asides happen in the round before the action, draws
                 * start the round after it */
                uint16_t hidden =
                    !strcmp(kind, "draw") ? hidden_of(&after, owner) : hidden_of(s, owner);
                for (int k = 0; k < RTW_KINDS; k++)
                    if ((hidden & (1u << k)) && strstr(text_of(e), NAME[k]))
                        fail_msg("'%s' names %s to viewer %d", text_of(e), NAME[k], viewer);
            }
        }
        if (viewer == RP_SPECTATOR) {
            attacks = count_events(events, "attack");
            assert_int_equal(count_events(events, "reveal"), attacks * s->clans);
        } else if (strcmp(kinds[0], kinds[1]) != 0) {
            fail_msg("viewer %d is told '%s', the spectator '%s'", viewer, kinds[1], kinds[0]);
        }
        cJSON_Delete(events);
    }
    return attacks;
}

/* Random games of one clan count (cycling through its player/neutral mixes, alternating the
 * variant) with the game's own invariants and the cheap generic checks (notation, state_ok,
 * actions as data) at every step. The costly checks (views, screens and events of every
 * viewer against determinized twins, the events' fairness, secret names) run at every step
 * of one game in FULL_EVERY and at one random step of the others, which keeps the default run
 * near a minute under ASan; `make soak` (RAMPARTS_SOAK=1) plays its full size. */
#define FULL_EVERY 15

static void property_run(const char *const *mixes, int nmixes)
{
    int games = rp_test_games(1500);
    rp_rng rng;
    rp_rng_seed(&rng, 77, 5);
    for (int g = 0; g < games; g++) {
        char opts[96];
        snprintf(opts, sizeof opts, "%s seed=%d%s", mixes[g % nmixes], g,
                 (g / nmixes) % 2 ? " variant=vogel" : "");
        rtw_state s;
        rp_test_init(G, &s, opts);
        bool full = g % FULL_EVERY == 0;
        int sampled = (int)rp_rng_below(&rng, 40), attacks = 0;
        for (int steps = 0; G->current_player(&s) != RP_TERMINAL; steps++) {
            assert_true(steps < 1000); /* the game ends */
            rp_error err = {{0}};
            if (rtw_check(&s, &err) < 0) /* all cards accounted for, values in range */
                fail_msg("%s step %d: %s", opts, steps, err.msg);
            rp_test_check_notation(G, &s);
            if (full || steps == sampled) {
                rp_test_check_views(G, &s, &rng);
                for (int viewer = RP_SPECTATOR; viewer < s.players; viewer++)
                    if (viewer != -1)
                        check_secret_names(&s, viewer);
            }
            double e = G->evaluate(&s, G->current_player(&s));
            assert_true(e >= 0.0 && e <= 1.0);
            rp_action legal[RP_MAX_LEGAL];
            int n = G->legal_actions(&s, legal);
            rp_action a = legal[rp_rng_below(&rng, (uint32_t)n)];
            if (full)
                attacks += check_events_fair(&s, a);
            G->apply(&s, a);
        }
        rp_error err = {{0}};
        if (rtw_check(&s, &err) < 0)
            fail_msg("%s at the end: %s", opts, err.msg);
        assert_true(s.winner >= 0 || (s.round == 2 && s.turn == 5));
        if (full) /* every turn of the game was told */
            assert_int_equal(attacks, G->turn_number(&s));
        rp_test_check_returns(G, &s);
    }
}

static void test_property_two_clans(void **unused)
{
    (void)unused;
    static const char *const mixes[] = {"players=2", "players=1 neutrals=1"};
    property_run(mixes, 2);
}

static void test_property_three_clans(void **unused)
{
    (void)unused;
    static const char *const mixes[] = {"players=3", "players=2 neutrals=1",
                                        "players=1 neutrals=2"};
    property_run(mixes, 3);
}

static void test_property_four_clans(void **unused)
{
    (void)unused;
    static const char *const mixes[] = {"players=4", "players=3 neutrals=1",
                                        "players=2 neutrals=2"};
    property_run(mixes, 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rw2_rw3_default_cards),
        cmocka_unit_test(test_rw2_card_file_becomes_the_option_value),
        cmocka_unit_test(test_rw2_cards_value_replaces_defaults),
        cmocka_unit_test(test_cards_file_malformed_is_refused_with_line),
        cmocka_unit_test(test_cards_value_is_canonical),
        cmocka_unit_test(test_cards_value_may_start_with_any_digit),
        cmocka_unit_test(test_state_card_values_out_of_range_are_refused),
        cmocka_unit_test(test_warriors_typed_as_the_hand_shows_them),
        cmocka_unit_test(test_rtw_p4_equal_strengths_refused),
        cmocka_unit_test(test_cards_option_opens_no_file),
        cmocka_unit_test(test_rw1_clan_counts),
        cmocka_unit_test(test_rw1_seats_are_the_clans),
        cmocka_unit_test(test_rtw_p5_config_of_reports_the_neutrals_in_play),
        cmocka_unit_test(test_turn_number_counts_rulebook_turns),
        cmocka_unit_test(test_rw4_wall_order),
        cmocka_unit_test(test_rtw_p1_lone_positive_fort_goes_left),
        cmocka_unit_test(test_rw5_planning_is_hidden),
        cmocka_unit_test(test_rw11_neutral_places_six_at_random),
        cmocka_unit_test(test_rulebook_worked_example),
        cmocka_unit_test(test_rw6_lone_chariott_counts),
        cmocka_unit_test(test_rw7_qween_without_rival_counts_herself),
        cmocka_unit_test(test_rw15_charmed_archr_keeps_tie_power),
        cmocka_unit_test(test_rw14_neutral_qween_cancels),
        cmocka_unit_test(test_rw11_neutral_qween_has_no_power),
        cmocka_unit_test(test_rw8_filchy_drops_out),
        cmocka_unit_test(test_rw8_a_lone_total_of_0_captures),
        cmocka_unit_test(test_rw8_two_archrs_tie),
        cmocka_unit_test(test_rw9_druhid_takes_any_fort),
        cmocka_unit_test(test_rw13_vogel_druhid_slides),
        cmocka_unit_test(test_rw13_vogel_tie_keeps_fort),
        cmocka_unit_test(test_rw19_vogel_all_filchy_keeps_fort),
        cmocka_unit_test(test_rw9_axx_kept),
        cmocka_unit_test(test_rw9_axx_dropped),
        cmocka_unit_test(test_rw11_neutral_keeps_axx),
        cmocka_unit_test(test_rw10_unknown_fort_kind_is_refused),
        cmocka_unit_test(test_rw9_horsie_discards_another),
        cmocka_unit_test(test_rw9_horsie_alone_discards_herself),
        cmocka_unit_test(test_rw16_unwary_keeps_weakest),
        cmocka_unit_test(test_rw10_signal_everyone_discards),
        cmocka_unit_test(test_rw10_signal_takes_lone_axx),
        cmocka_unit_test(test_rw10_rw11_signal_makes_a_neutral_discard_its_weakest),
        cmocka_unit_test(test_rw20_horsie_after_signal_took_her),
        cmocka_unit_test(test_rw20_horsie_with_nothing_left_discards_nothing),
        cmocka_unit_test(test_rw17_tax_pays_another_fort),
        cmocka_unit_test(test_rw17_tax_alone_is_discarded),
        cmocka_unit_test(test_rw17_neutral_pays_the_first_of_its_lowest),
        cmocka_unit_test(test_rw18_three_legions_win),
        cmocka_unit_test(test_rw18_neutral_three_legions_play_on),
        cmocka_unit_test(test_rw19_zvord_reorders_after_capture),
        cmocka_unit_test(test_rw11_neutral_zvord_no_effect),
        cmocka_unit_test(test_rw12_tie_breaks),
        cmocka_unit_test(test_state_text_validates),
        cmocka_unit_test(test_state_text_is_canonical),
        cmocka_unit_test(test_state_text_names_each_fort),
        cmocka_unit_test(test_state_ok_on_broken_states),
        cmocka_unit_test(test_moves_forgive_case_and_spacing),
        cmocka_unit_test(test_view_is_plain_data),
        cmocka_unit_test(test_actions_as_data),
        cmocka_unit_test(test_explain_illegal),
        cmocka_unit_test(test_secret_names),
        cmocka_unit_test(test_events_rw5_placement_named_only_to_its_clan),
        cmocka_unit_test(test_events_rulebook_worked_example),
        cmocka_unit_test(test_events_rw8_rw13_ties),
        cmocka_unit_test(test_events_rw9_druhid),
        cmocka_unit_test(test_events_rw17_tax_axx_round_end),
        cmocka_unit_test(test_events_rw18_legions),
        cmocka_unit_test(test_events_rw19_zvord),
        cmocka_unit_test(test_events_qweens_and_chariotts),
        cmocka_unit_test(test_events_rw12_game_over_score),
        cmocka_unit_test(test_determinize_keeps_what_is_seen),
        cmocka_unit_test(test_render),
        cmocka_unit_test(test_rw4_wall_order_matches_the_reference),
        cmocka_unit_test(test_rw5_every_hand_lists_its_kinds),
        cmocka_unit_test(test_rw17_tax_choices_match_the_reference),
        cmocka_unit_test(test_property_two_clans),
        cmocka_unit_test(test_property_three_clans),
        cmocka_unit_test(test_property_four_clans),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
