/* fuzz_cards.c — libFuzzer target: option files (every text option's from_file hook, such as
 * Rush the Wall's cards=@FILE). The first input byte picks the option among those that read
 * files; the rest is the file's text. A refused file says why; an accepted one gives the same
 * one-word value each time, which the option takes, and a game set up with it starts soundly
 * and plays to its end keeping every promise of a state. */
#include "fuzz.h"

typedef struct file_option {
    const rp_game *game;
    const rp_option_spec *spec;
} file_option;

/* The options of every registered game that read files; how many there are. */
static int file_options(file_option *out, int max)
{
    int n = 0;
    for (int g = 0; g < rp_num_games; g++)
        for (int o = 0; o < rp_games[g]->num_options && n < max; o++)
            if (rp_games[g]->options[o].from_file)
                out[n++] = (file_option){rp_games[g], &rp_games[g]->options[o]};
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    file_option options[16];
    const int count = file_options(options, 16);
    if (size < 1 || size > FUZZ_MAX_INPUT || count == 0)
        return 0;
    const file_option *opt = &options[data[0] % count];
    const rp_game *game = opt->game;
    char *text = fuzz_text(data + 1, size - 1);
    char value[RP_OPTION_TEXT], again[RP_OPTION_TEXT];
    rp_error err = {{0}};
    if (opt->spec->from_file(text, "fuzz.cards", value, sizeof value, &err) < 0) {
        FUZZ_CHECK(err.msg[0] != '\0', "%s: %s=@FILE refused without a reason", game->id,
                   opt->spec->name);
        free(text);
        return 0;
    }
    FUZZ_CHECK(memchr(value, '\0', sizeof value) != NULL && value[0] != '\0' &&
                   !strpbrk(value, " \t\r\n"),
               "%s: %s=@FILE gave a value that is not one word", game->id, opt->spec->name);
    FUZZ_CHECK(opt->spec->from_file(text, "fuzz.cards", again, sizeof again, &err) == RP_OK &&
                   strcmp(value, again) == 0,
               "%s: the same file gave two values", game->id);
    free(text);

    rp_config cfg;
    rp_config_default(game, &cfg);
    char key_value[RP_OPTION_TEXT + 64];
    snprintf(key_value, sizeof key_value, "%s=%s", opt->spec->name, value);
    FUZZ_CHECK(rp_config_set(game, &cfg, key_value, &err) == RP_OK,
               "%s: the option refuses the value its file gave: %s", game->id, err.msg);
    rp_state st;
    FUZZ_CHECK(game->init(&st, &cfg, &err) == RP_OK,
               "%s: a game with an accepted %s file does not start: %s", game->id, opt->spec->name,
               err.msg);
    rp_rng rng;
    fuzz_rng(&rng, data, size);
    fuzz_check_state(game, &st, &rng);
    fuzz_play(game, &st, 100000, &rng);
    FUZZ_CHECK(game->current_player(&st) == RP_TERMINAL, "%s: a game did not end", game->id);
    return 0;
}
