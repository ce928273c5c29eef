/* auth.c — see auth.h. Every random byte comes from randombytes_buf; every secret comparison
 * is constant-time; passwords are zeroed by the callers once hashed. */
#include "auth.h"

#include <ctype.h>
#include <sodium.h>
#include <string.h>
#include <strings.h>

bool rs_auth_init(void)
{
    return sodium_init() >= 0;
}

static void random_text(char *out, size_t out_size, size_t bytes)
{
    unsigned char raw[32];
    randombytes_buf(raw, bytes);
    sodium_bin2base64(out, out_size, raw, bytes, sodium_base64_VARIANT_URLSAFE_NO_PADDING);
    sodium_memzero(raw, sizeof raw);
}

void rs_token_new(char out[RS_TOKEN_TEXT])
{
    random_text(out, RS_TOKEN_TEXT, 32);
}

void rs_invite_new(char out[RS_INVITE_TEXT])
{
    random_text(out, RS_INVITE_TEXT, 16);
}

void rs_token_hash(const char *token, size_t len, uint8_t out[RS_TOKEN_HASH])
{
    crypto_generichash(out, RS_TOKEN_HASH, (const unsigned char *)token, len, NULL, 0);
}

bool rs_secret_equal(const char *a, const char *b)
{
    size_t n = strlen(a);
    if (n != strlen(b))
        return false;
    return sodium_memcmp(a, b, n) == 0;
}

uint64_t rs_seed_new(void)
{
    uint64_t seed;
    randombytes_buf(&seed, sizeof seed);
    return seed;
}

void rs_seed_commitment(uint64_t seed, char out[65])
{
    unsigned char bytes[8], hash[32];
    for (int i = 0; i < 8; i++)
        bytes[i] = (unsigned char)(seed >> (8 * i));
    crypto_generichash(hash, sizeof hash, bytes, sizeof bytes, NULL, 0);
    sodium_bin2hex(out, 65, hash, sizeof hash);
}

void rs_guest_name(char out[RS_NAME_MAX + 1])
{
    static const char alphabet[] = "abcdefghijkmnpqrstuvwxyz23456789";
    char *p = out + sprintf(out, "guest-");
    for (int i = 0; i < 6; i++)
        *p++ = alphabet[randombytes_uniform(sizeof alphabet - 1)];
    *p = '\0';
}

bool rs_password_hash(const char *password, char out[RS_PWHASH_TEXT])
{
    return crypto_pwhash_str(out, password, strlen(password), crypto_pwhash_OPSLIMIT_INTERACTIVE,
                             crypto_pwhash_MEMLIMIT_INTERACTIVE) == 0;
}

bool rs_password_verify(const char *stored, const char *password)
{
    return crypto_pwhash_str_verify(stored, password, strlen(password)) == 0;
}

/* Names a person may not take (issue 49): what the tables call the computer and its levels,
 * and words that would pass for the site speaking. Compared ignoring case. */
static const char *const reserved_names[] = {
    "computer",  "ai",     "random", "greedy", "beginner",  "easy",   "medium",   "hard",
    "mcts",      "ismcts", "oracle", "bot",    "admin",     "system", "ramparts", "moderator",
    "spectator", "guest",  "server", "nobody", "anonymous", NULL};

const char *rs_name_problem(const char *name)
{
    size_t n = strlen(name);
    if (n < RS_NAME_MIN || n > RS_NAME_MAX)
        return "a name has 3 to 20 characters";
    if (!isalpha((unsigned char)name[0]))
        return "a name starts with a letter";
    for (size_t i = 0; i < n; i++)
        if (!isalnum((unsigned char)name[i]) && name[i] != '-' && name[i] != '_')
            return "a name has only letters, digits, '-' and '_'";
    if (strncasecmp(name, "guest-", 6) == 0)
        return "names starting with 'guest-' are for guests";
    for (int i = 0; reserved_names[i]; i++)
        if (strcasecmp(name, reserved_names[i]) == 0)
            return "that name is reserved (the computer's, or the site's)";
    return NULL;
}

void rs_secret_wipe(void *p, size_t n)
{
    sodium_memzero(p, n);
}
