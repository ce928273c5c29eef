/* cmd_list.c — `ramparts list` (the games, one a line) and `ramparts rules GAME` (the rules
 * document as implemented, embedded from docs/rules/). */
#include <string.h>

#include "cli.h"

int rp_cmd_list(int argc, char **argv)
{
    if (rp_cli_wants_help(argc, argv)) {
        printf("usage: ramparts list [--json]\n\nThe games, one a line: id, players, traits, "
               "title.\n");
        return RP_EXIT_OK;
    }
    bool json = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0)
            json = true;
        else
            return rp_cli_usage_error("list", "unknown argument '%s'", argv[i]);
    }
    if (json)
        printf("[");
    for (int i = 0; i < rp_num_games; i++) {
        const rp_game *g = rp_games[i];
        bool chance = (g->flags & RP_CHANCE) != 0, hidden = (g->flags & RP_HIDDEN_INFO) != 0;
        if (json) {
            printf("%s{\"id\":\"%s\",\"title\":\"%s\",\"min_players\":%d,\"max_players\":%d,"
                   "\"chance\":%s,\"hidden_information\":%s}",
                   i ? "," : "", g->id, g->title, g->min_players, g->max_players,
                   chance ? "true" : "false", hidden ? "true" : "false");
            continue;
        }
        char players[16];
        if (g->min_players == g->max_players)
            snprintf(players, sizeof players, "%d", g->min_players);
        else
            snprintf(players, sizeof players, "%d-%d", g->min_players, g->max_players);
        printf("%-22s %-4s players  %-6s %-6s  %s\n", g->id, players, chance ? "chance" : "-",
               hidden ? "hidden" : "open", g->title);
    }
    if (json)
        printf("]\n");
    return RP_EXIT_OK;
}

int rp_cmd_rules(int argc, char **argv)
{
    if (rp_cli_wants_help(argc, argv) || argc < 2) {
        printf("usage: ramparts rules GAME [key=value ...]\n\nPrints the rules of GAME as "
               "implemented, with the ruling ids they rest on,\nthen its options and any values "
               "taken from them (e.g. cards=@FILE for rush-the-wall reads a card file).\n");
        return argc < 2 && !rp_cli_wants_help(argc, argv) ? RP_EXIT_USAGE : RP_EXIT_OK;
    }
    const rp_game *game = rp_cli_game("rules", argv[1]);
    if (!game)
        return RP_EXIT_USAGE;
    rp_config cfg;
    rp_config_default(game, &cfg);
    for (int i = 2; i < argc; i++) {
        int rc = rp_cli_set_option("rules", game, &cfg, argv[i]);
        if (rc != RP_EXIT_OK)
            return rc;
    }
    rp_state st;
    rp_error err;
    if (game->init(&st, &cfg, &err) < 0) {
        fprintf(stderr, "ramparts rules: %s\n", err.msg);
        return RP_EXIT_FAIL;
    }
    const char *rules = rp_game_rules(game);
    if (!rules) {
        fprintf(stderr, "ramparts rules: no rules document for %s\n", game->id);
        return RP_EXIT_FAIL;
    }
    fputs(rules, stdout);
    printf("\n---\nOptions (key=value): players=%d..%d (default %d), seed=N", game->min_players,
           game->max_players, game->default_players);
    for (int i = 0; i < game->num_options; i++) {
        const rp_option_spec *o = &game->options[i];
        if (o->kind == RP_OPT_INT)
            printf(", %s=%lld..%lld (default %lld)", o->name, (long long)o->min, (long long)o->max,
                   (long long)o->def);
        else if (o->kind == RP_OPT_CHOICE)
            printf(", %s=%s", o->name, o->choices);
        else
            printf(", %s=TEXT", o->name);
    }
    printf("\n");
    if (game->describe)
        game->describe(&st, stdout);
    return RP_EXIT_OK;
}
