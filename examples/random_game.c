/* random_game.c — the smallest program on the installed library: play one seeded game of any
 * Ramparts game with uniformly random legal moves, print each move in the game's notation and
 * the result. Build it against an installed libramparts:
 *   cc random_game.c $(pkg-config --cflags --libs ramparts) -o random_game
 *   ./random_game danger-at-the-walls 7 */
#include <stdio.h>
#include <stdlib.h>

#include <ramparts/game.h>
#include <ramparts/version.h>

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: random_game GAME SEED\n");
        return 2;
    }
    const rp_game *game = rp_game_find(argv[1]);
    if (!game) {
        fprintf(stderr, "random_game: no game '%s'\n", argv[1]);
        return 2;
    }
    rp_config cfg;
    rp_config_default(game, &cfg);
    cfg.seed = strtoull(argv[2], NULL, 10);
    rp_state st;
    rp_error err;
    if (game->init(&st, &cfg, &err) < 0) {
        fprintf(stderr, "random_game: %s\n", err.msg);
        return 1;
    }
    printf("%s, ramparts %s, seed %llu\n", game->title, RP_VERSION_STRING,
           (unsigned long long)cfg.seed);
    rp_rng rng;
    rp_rng_seed(&rng, cfg.seed, 1);
    int moves = 0;
    while (game->current_player(&st) != RP_TERMINAL) {
        rp_action legal[RP_MAX_LEGAL];
        const int n = game->legal_actions(&st, legal);
        const rp_action action = legal[rp_rng_below(&rng, (unsigned)n)];
        char text[RP_ACTION_TEXT];
        game->action_to_text(&st, action, text, sizeof text);
        printf("%s: %s\n", rp_seat_name(game, game->current_player(&st)), text);
        game->apply(&st, action);
        moves++;
    }
    double returns[RP_MAX_PLAYERS];
    game->returns(&st, returns);
    printf("over after %d moves; returns", moves);
    for (int p = 0; p < game->num_players(&st); p++)
        printf(" %g", returns[p]);
    printf("\n");
    return 0;
}
