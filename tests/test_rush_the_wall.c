/* test_rush_the_wall.c — Rush the Wall: one test per rule of the rulebook and per ruling
 * (RW-n from the shared rulings, RTW-Pn from docs/rules/rush-the-wall.md), built from
 * hand-made turns, plus property runs over random games for every clan mix and the variant. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/rush_the_wall.h"
#include "support.h"

static const rp_game *const G = &rp_rush_the_wall;

/* Default fort ids (data/rush-the-wall.cards, RW-3): */
enum {
    UNWARY2, SIGNAL4, TAX8, LEG1, LEG2A, LEG2B, LEG3,
    D1A, D1B, D3A, D3B, D4A, D4B, D5A, D5B, D6A, D6B, D6C
};

static const char *const WORD[RTW_KINDS] = {"filchy", "qween", "druhid", "zvord", "archr",
                                            "horsie", "axx", "chariott", "laird"};

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

/* Start a game with `options`, in round `round` (1-based), with `wall` as this round's wall
 * (it must already be in RW-4 order), `held[c]` the forts each clan holds from earlier rounds
 * (the other earlier forts are discarded) and plans[c] the clan's six warriors in slot order
 * (a player clan adds its seventh, set aside, as a seventh letter). The player clans' plans
 * are played as moves; the turns then resolve up to the first decision. */
static void setup_round(rtw_state *s, const char *options, int round, const uint8_t wall[6],
                        const uint32_t *held, const char *const *plans)
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
            char move[32];
            snprintf(move, sizeof move, "place %s", WORD[kind_of(plans[c][i])]);
            play(s, move);
        }
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

/* ---- card data (RW-2, RW-3) ---- */

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
}

static char tmp_path[64];

/* Write a card file for cards=FILE tests. */
static const char *write_tmp(const char *text)
{
    snprintf(tmp_path, sizeof tmp_path, "/tmp/rtw-test-%p.cards", (void *)&tmp_path);
    FILE *f = fopen(tmp_path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return tmp_path;
}

static const char *const GOOD_CARDS =
    "# a custom table\n"
    "warrior filchy 2\nwarrior qween 3\nwarrior druhid 4\nwarrior zvord 5\n"
    "warrior archr 6\nwarrior horsie 7\nwarrior axx 8\nwarrior chariott 9\n"
    "warrior laird 10   # the ninth\n"
    "fort tax 1\nfort unwary 2\nfort signal 4\n"
    "fort legion -1\nfort legion -2\nfort legion -2\nfort legion -3\n"
    "fort dinary 2\nfort dinary 3\nfort dinary 3\nfort dinary 4\nfort dinary 4\n"
    "fort dinary 5\nfort dinary 5\nfort dinary 6\nfort dinary 6\nfort dinary 6\n"
    "fort dinary 7\n";

/* Init with cards=FILE; returns the init code and the message. */
static int init_with_cards(rtw_state *s, const char *text, rp_error *err)
{
    rp_config cfg;
    rp_config_default(G, &cfg);
    char kv[128];
    snprintf(kv, sizeof kv, "cards=%s", write_tmp(text));
    assert_int_equal(rp_config_set(G, &cfg, kv, err), RP_OK);
    int rc = G->init(s, &cfg, err);
    remove(tmp_path);
    return rc;
}

/* RW-2/RW-3 defaults are replaceable: cards=FILE sets the values, and they live in the state
 * and its notation. */
static void test_rw2_cards_file_replaces_defaults(void **unused)
{
    (void)unused;
    rtw_state s;
    rp_error err = {{0}};
    assert_int_equal(init_with_cards(&s, GOOD_CARDS, &err), RP_OK);
    assert_int_equal(s.cards.strength[RTW_LAIRD], 10);
    assert_int_equal(s.cards.fort_kind[0], RTW_TAX);
    assert_int_equal(s.cards.fort_value[0], 1);
    char text[RP_STATE_TEXT];
    assert_true(G->state_to_text(&s, text, sizeof text) > 0);
    assert_non_null(strstr(text, "warriors=2,3,4,5,6,7,8,9,10 forts=t1,u2,s4,"));
    rtw_state back;
    rp_test_load(G, &back, text);
    assert_memory_equal(&back, &s, sizeof s);
}

/* A malformed card file is refused, naming the line and the reason. */
static void test_cards_file_malformed_is_refused_with_line(void **unused)
{
    (void)unused;
    static const struct {
        const char *text, *expect;
    } bad[] = {
        {"warrior filchy 1\nwarrior qween two\n", "line 2: strength 'two'"},
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
        rtw_state s;
        memset(&s, 0x5A, sizeof s);
        rp_error err = {{0}};
        assert_true(init_with_cards(&s, bad[i].text, &err) < 0);
        if (!strstr(err.msg, bad[i].expect))
            fail_msg("case %zu: message '%s' lacks '%s'", i, err.msg, bad[i].expect);
    }
    /* 17 forts: the count is checked too */
    char text[2048];
    snprintf(text, sizeof text, "%s", GOOD_CARDS);
    *strstr(text, "fort dinary 7\n") = '\0';
    rtw_state s;
    rp_error err = {{0}};
    assert_true(init_with_cards(&s, text, &err) < 0);
    assert_non_null(strstr(err.msg, "17 forts, expected exactly 18"));
    /* a missing file */
    rp_config cfg;
    rp_config_default(G, &cfg);
    assert_int_equal(rp_config_set(G, &cfg, "cards=/nonexistent/rtw.cards", &err), RP_OK);
    assert_true(G->init(&s, &cfg, &err) < 0);
    assert_non_null(strstr(err.msg, "cannot open"));
}

/* RTW-P4: equal warrior strengths are refused (the weakest warrior must be one, RW-16). */
static void test_rtw_p4_equal_strengths_refused(void **unused)
{
    (void)unused;
    char text[2048];
    snprintf(text, sizeof text, "%s", GOOD_CARDS);
    memcpy(strstr(text, "laird 10"), "laird 9 ", 8); /* same as chariott */
    rtw_state s;
    rp_error err = {{0}};
    assert_true(init_with_cards(&s, text, &err) < 0);
    assert_non_null(strstr(err.msg, "same strength"));
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
    cJSON *view = G->view_json(&s, 1);
    cJSON *green = cJSON_GetArrayItem(cJSON_GetObjectItem(view, "clans"), 0);
    assert_string_equal(cJSON_GetObjectItem(green, "slots")->valuestring, "? ? ? ? ? ?");
    assert_null(cJSON_GetObjectItem(green, "hand"));
    assert_null(cJSON_GetObjectItem(green, "drawn"));
    cJSON_Delete(view);
    view = G->view_json(&s, 0);
    green = cJSON_GetArrayItem(cJSON_GetObjectItem(view, "clans"), 0);
    const char *own = cJSON_GetObjectItem(green, "slots")->valuestring;
    assert_memory_equal(own, WORD[s.slot[0][0]], strlen(WORD[s.slot[0][0]]));
    assert_null(strchr(own, '?'));
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
    assert_int_equal(up(&s, 0), mask_of("aq"));  /* Ch'ariott gone, Arch'r stays */
    assert_int_equal(up(&s, 1), mask_of("df"));  /* Ch'ariott gone, Dru'hid stays */
    assert_int_equal(up(&s, 2), mask_of("ah"));  /* Unwary kept the Arch'r */
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

static const uint8_t SIGNAL_WALL[6] = {D1A, SIGNAL4, D3A, D4A, D5A, D6A};

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

/* RTW-P3: Horsie acts even if the Signal discarded her earlier in the turn. */
static void test_rtw_p3_horsie_after_signal(void **unused)
{
    (void)unused;
    rtw_state s;
    static const char *const plans[] = {"lhdqzaf", "lxfqdza"};
    setup(&s, "players=2", SIGNAL_WALL, plans);
    /* turn 2: Red 9 + 7 captures the Signal against Green 9 + 6 */
    assert_int_equal(s.phase, RTW_SIGNAL_PICK);
    assert_int_equal(s.actor, 0);
    play(&s, "discard horsie");
    play(&s, "drop axx");
    /* Horsie lost: Green must still discard another warrior, the Laird */
    assert_int_equal(up(&s, 0), mask_of("d"));
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

/* RW-17: with no other fort the capturer discards the Tax-Collector's itself. */
static void test_rw17_tax_alone_is_discarded(void **unused)
{
    (void)unused;
    rtw_state s;
    char opts[128];
    snprintf(opts, sizeof opts, "players=2 cards=%s", write_tmp(GOOD_CARDS));
    const uint8_t wall[6] = {0, 3, 8, 10, 12, 17}; /* tax 1 (lowest) first */
    static const char *const plans[] = {"lfqzahx", "fdqzahx"};
    setup(&s, opts, wall, plans);
    remove(tmp_path);
    assert_int_equal(s.forts[0], 0);
    assert_true(s.gone & 1u);
    assert_int_equal(s.phase, RTW_DRUHID_PICK);
    assert_int_equal(s.actor, 1);
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
    const uint8_t laid[6] = {RTW_ZVORD, RTW_FILCHY, RTW_QWEEN, RTW_DRUHID, RTW_ARCHR,
                             RTW_HORSIE};
    assert_memory_equal(s.slot[1], laid, 6);
}

/* ---- game end (RW-12) ---- */

static double share_of(rtw_state *s, const char *options, uint32_t f0, uint32_t f1,
                       uint32_t f2, int seat)
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
    assert_true(share_of(&s, two, (1u << D1A) | (1u << D6A), (1u << D3A) | (1u << D4A), 0, 0)
                == 1.0);
    assert_true(share_of(&s, two, 1u << D3A, 1u << D3B, 0, 0) == 0.5);
    assert_true(share_of(&s, two, 0, 0, 0, 1) == 0.5);
    const char *neutral = "players=2 neutrals=1";
    assert_true(share_of(&s, neutral, 1u << D1A, 0, (1u << D6A) | (1u << D6B), 0) == 1.0);
}

/* ---- notation, views ---- */

/* Full-state notation round-trips; inconsistent texts are refused with a reason and change
 * nothing. */
static void test_state_text_validates(void **unused)
{
    (void)unused;
    rtw_state s, before;
    static const char *const plans[] = {"acqzhxd", "dcfzhxa", "lahzxcq"};
    setup(&s, "players=3", PLAIN_WALL, plans);
    char text[RP_STATE_TEXT];
    assert_true(G->state_to_text(&s, text, sizeof text) > 0);
    rtw_state back;
    rp_test_load(G, &back, text);
    assert_memory_equal(&back, &s, sizeof s);
    before = s;
    static const struct {
        const char *from, *to, *expect;
    } edits[] = {
        {"gone=-", "gone=3", "not all accounted for"},
        {"gone=-", "gone=7", "a fort is in two places"},
        {"phase=qween", "phase=druhid", "did not reveal"},
        {"capturer=-", "capturer=1", "decided only after the Qween"},
        {"players=3", "players=2", "clans: 3 given"},
        {"warriors=1,2,3", "warriors=1,1,3", "same strength"},
        {"turn=3", "turn=2", "should be"},
        {"rtw1", "rtw2", "not a Rush the Wall state"},
    };
    for (size_t i = 0; i < sizeof edits / sizeof *edits; i++) {
        char bad[RP_STATE_TEXT];
        char *at = strstr(text, edits[i].from);
        assert_non_null(at);
        snprintf(bad, sizeof bad, "%.*s%s%s", (int)(at - text), text, edits[i].to,
                 at + strlen(edits[i].from));
        rp_error err = {{0}};
        assert_true(G->state_from_text(&s, bad, &err) < 0);
        if (!strstr(err.msg, edits[i].expect))
            fail_msg("edit %zu: message '%s' lacks '%s'", i, err.msg, edits[i].expect);
        assert_memory_equal(&s, &before, sizeof s);
    }
}

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

/* The renderer names the clans and the card values as assumptions; colour only on request. */
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
    assert_null(strchr(buf, '\033'));
    f = fmemopen(buf, sizeof buf, "w");
    G->render(&s, 0, f, true);
    fclose(f);
    assert_non_null(strchr(buf, '\033'));
}

/* ---- property runs ---- */

/* Random games of one clan count (cycling through its player/neutral mixes, alternating the
 * variant) with the generic checks and the game's own invariants at every step:
 * rp_test_games(10000) games for each clan count, as the issue asks. */
static void property_run(const char *const *mixes, int nmixes)
{
    int games = rp_test_games(10000);
    rp_rng rng;
    rp_rng_seed(&rng, 77, 5);
    for (int g = 0; g < games; g++) {
        char opts[96];
        snprintf(opts, sizeof opts, "%s seed=%d%s", mixes[g % nmixes], g,
                 (g / nmixes) % 2 ? " variant=vogel" : "");
        rtw_state s;
        rp_test_init(G, &s, opts);
        int steps = 0;
        while (G->current_player(&s) != RP_TERMINAL) {
            assert_true(++steps < 1000); /* the game ends */
            rp_error err = {{0}};
            if (rtw_check(&s, &err) < 0) /* all cards accounted for, values in range */
                fail_msg("%s step %d: %s", opts, steps, err.msg);
            rp_test_check_step(G, &s, &rng);
            double e = G->evaluate(&s, G->current_player(&s));
            assert_true(e >= 0.0 && e <= 1.0);
            rp_test_random_step(G, &s, &rng);
        }
        rp_error err = {{0}};
        if (rtw_check(&s, &err) < 0)
            fail_msg("%s at the end: %s", opts, err.msg);
        assert_true(s.winner >= 0 || (s.round == 2 && s.turn == 5));
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
        cmocka_unit_test(test_rw2_cards_file_replaces_defaults),
        cmocka_unit_test(test_cards_file_malformed_is_refused_with_line),
        cmocka_unit_test(test_rtw_p4_equal_strengths_refused),
        cmocka_unit_test(test_rw1_clan_counts),
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
        cmocka_unit_test(test_rw8_two_archrs_tie),
        cmocka_unit_test(test_rw9_druhid_takes_any_fort),
        cmocka_unit_test(test_rw13_vogel_druhid_slides),
        cmocka_unit_test(test_rw13_vogel_tie_keeps_fort),
        cmocka_unit_test(test_rw19_vogel_all_filchy_keeps_fort),
        cmocka_unit_test(test_rw9_axx_kept),
        cmocka_unit_test(test_rw9_axx_dropped),
        cmocka_unit_test(test_rw11_neutral_keeps_axx),
        cmocka_unit_test(test_rw9_horsie_discards_another),
        cmocka_unit_test(test_rw9_horsie_alone_discards_herself),
        cmocka_unit_test(test_rw16_unwary_keeps_weakest),
        cmocka_unit_test(test_rw10_signal_everyone_discards),
        cmocka_unit_test(test_rw10_signal_takes_lone_axx),
        cmocka_unit_test(test_rtw_p3_horsie_after_signal),
        cmocka_unit_test(test_rw17_tax_pays_another_fort),
        cmocka_unit_test(test_rw17_tax_alone_is_discarded),
        cmocka_unit_test(test_rw18_three_legions_win),
        cmocka_unit_test(test_rw18_neutral_three_legions_play_on),
        cmocka_unit_test(test_rw19_zvord_reorders_after_capture),
        cmocka_unit_test(test_rw11_neutral_zvord_no_effect),
        cmocka_unit_test(test_rw12_tie_breaks),
        cmocka_unit_test(test_state_text_validates),
        cmocka_unit_test(test_determinize_keeps_what_is_seen),
        cmocka_unit_test(test_render),
        cmocka_unit_test(test_property_two_clans),
        cmocka_unit_test(test_property_three_clans),
        cmocka_unit_test(test_property_four_clans),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
