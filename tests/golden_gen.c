/* golden_gen.c — prints the golden playthrough of one game (tests/golden/<game>.txt): one
 * seeded game, step by step, with the full-state notation, the legal moves, the move a fixed
 * generator picks, and the events each viewer (every seat and the spectator) is told. The
 * files are rewritten only by `make golden`; tests/golden/golden.sh compares them, so any
 * change of rules, notation, generator or event text shows as a readable diff. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ramparts/game.h"
#include "ramparts/json.h"

#define GOLDEN_STEPS 24
#define GOLDEN_SEED 2026

/* The events `viewer` is told of `action` in st, one line. */
static void print_events(const rp_game *game, const void *st, rp_action action, int viewer)
{
    rp_error err = {{0}};
    cJSON *events = rp_events_cjson(game, st, action, viewer, &err);
    if (!events) {
        printf("  told %s: (error: %s)\n", rp_viewer_name(game, viewer), err.msg);
        return;
    }
    char *text = cJSON_PrintUnformatted(events);
    printf("  told %s: %s\n", rp_viewer_name(game, viewer), text ? text : "(out of memory)");
    free(text);
    cJSON_Delete(events);
}

static int playthrough(const rp_game *game)
{
    rp_config cfg;
    rp_config_default(game, &cfg);
    cfg.seed = GOLDEN_SEED;
    rp_state st;
    rp_error err = {{0}};
    if (game->init(&st, &cfg, &err) < 0) {
        fprintf(stderr, "golden_gen: %s: %s\n", game->id, err.msg);
        return 1;
    }
    char options[1024];
    rp_config_to_text(game, &cfg, options, sizeof options);
    printf("# %s, %s: the first %d moves, picked by a generator seeded %d "
           "(make golden rewrites this file)\n",
           game->id, options, GOLDEN_STEPS, GOLDEN_SEED);
    rp_rng pick;
    rp_rng_seed(&pick, GOLDEN_SEED, 1);
    for (int step = 1; step <= GOLDEN_STEPS; step++) {
        char text[RP_STATE_TEXT];
        game->state_to_text(&st, text, sizeof text);
        printf("\nstep %d\nstate %s\n", step, text);
        const int seat = game->current_player(&st);
        if (seat == RP_TERMINAL) {
            double returns[RP_MAX_PLAYERS];
            game->returns(&st, returns);
            printf("over, returns");
            for (int p = 0; p < game->num_players(&st); p++)
                printf(" %g", returns[p]);
            printf("\n");
            break;
        }
        rp_action legal[RP_MAX_LEGAL];
        const int n = game->legal_actions(&st, legal);
        printf("legal %d:", n);
        for (int i = 0; i < n; i++) {
            char move[RP_ACTION_TEXT];
            game->action_to_text(&st, legal[i], move, sizeof move);
            printf(" %s%s", move, i + 1 < n ? "," : "");
        }
        const rp_action action = legal[rp_rng_below(&pick, (uint32_t)n)];
        char move[RP_ACTION_TEXT];
        game->action_to_text(&st, action, move, sizeof move);
        printf("\n%s plays %s\n", rp_seat_name(game, seat), move);
        for (int viewer = 0; viewer < game->num_players(&st); viewer++)
            print_events(game, &st, action, viewer);
        print_events(game, &st, action, RP_SPECTATOR);
        game->apply(&st, action);
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: golden_gen GAME\n");
        return 2;
    }
    const rp_game *game = rp_game_find(argv[1]);
    if (!game) {
        fprintf(stderr, "golden_gen: no game '%s'\n", argv[1]);
        return 2;
    }
    return playthrough(game);
}
