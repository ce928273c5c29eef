/* auth.c — see auth.h. Every random byte comes from randombytes_buf; every secret comparison
 * is constant-time; passwords are zeroed by the callers once hashed. The password rule is
 * libpwquality's and the lookalike test ICU's (issue 49), never a hand-written list. */
#include "auth.h"

#include <ctype.h>
#include <pthread.h>
#include <pwquality.h>
#include <sodium.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unicode/uspoof.h>

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

/* cracklib keeps no state between calls but is not documented as thread-safe: the hashing
 * threads take turns. The settings are made once and never changed. */
static pthread_mutex_t pwquality_lock = PTHREAD_MUTEX_INITIALIZER;
static pwquality_settings_t *pwquality_settings;

bool rs_password_weak(const char *password, const char *name, char *why, size_t why_size)
{
    pthread_mutex_lock(&pwquality_lock);
    if (!pwquality_settings)
        pwquality_settings = pwquality_default_settings();
    void *aux = NULL;
    const int score = pwquality_settings
                          ? pwquality_check(pwquality_settings, password, NULL, name, &aux)
                          : PWQ_ERROR_MEM_ALLOC;
    char text[PWQ_MAX_ERROR_MESSAGE_LEN];
    if (score < 0)
        snprintf(why, why_size, "%s", pwquality_strerror(text, sizeof text, score, aux));
    pthread_mutex_unlock(&pwquality_lock);
    return score < 0;
}

/* Names a person may not take (issue 49): what the tables call the computer and its levels,
 * and words that would pass for the site speaking. Compared ignoring case. */
static const char *const reserved_names[] = {
    "computer", "ai",        "random",      "greedy", "beginner", "easy",   "medium",
    "hard",     "mcts",      "ismcts",      "oracle", "bot",      "admin",  "system",
    "ramparts", "moderator", "spectator",   "guest",  "server",   "nobody", "anonymous",
    "human",    "player",    "computer-ai", NULL};

/* One spoof checker for the process, opened at the first use (it loads ICU's confusables
 * data) and kept; ICU allows concurrent skeletons from one checker, the lock covers the open. */
static pthread_mutex_t spoof_lock = PTHREAD_MUTEX_INITIALIZER;
static USpoofChecker *spoof_checker;

static USpoofChecker *spoof(void)
{
    pthread_mutex_lock(&spoof_lock);
    if (!spoof_checker) {
        UErrorCode status = U_ZERO_ERROR;
        USpoofChecker *sc = uspoof_open(&status);
        if (U_SUCCESS(status))
            uspoof_setChecks(sc, USPOOF_CONFUSABLE, &status);
        if (U_SUCCESS(status))
            spoof_checker = sc;
        else
            uspoof_close(sc);
    }
    USpoofChecker *sc = spoof_checker;
    pthread_mutex_unlock(&spoof_lock);
    return sc;
}

bool rs_name_skeleton(const char *name, char out[RS_SKELETON_TEXT])
{
    out[0] = '\0';
    const USpoofChecker *sc = spoof();
    if (!sc)
        return false;
    UErrorCode status = U_ZERO_ERROR;
    const int32_t n = uspoof_getSkeletonUTF8(sc, 0, name, -1, out, RS_SKELETON_TEXT, &status);
    if (U_FAILURE(status) || n >= RS_SKELETON_TEXT) {
        out[0] = '\0';
        return false;
    }
    /* Names are compared ignoring case, so skeletons are too: "AIice" -> "Alice" -> "alice". */
    for (char *p = out; *p; p++)
        *p = (char)tolower((unsigned char)*p);
    return true;
}

void rs_name_lower(const char *name, char out[RS_NAME_MAX + 1])
{
    size_t i = 0;
    for (; name[i] && i < RS_NAME_MAX; i++)
        out[i] = (char)tolower((unsigned char)name[i]);
    out[i] = '\0';
}

/* True when name is, or looks like, one of the reserved names: its skeleton as written
 * ("AI" with a capital i) or in lower case ("C0MPUTER") is a reserved name's. */
static bool reserved(const char *name)
{
    char lower[RS_NAME_MAX + 1], as_written[RS_SKELETON_TEXT], lowered[RS_SKELETON_TEXT];
    char other[RS_SKELETON_TEXT];
    rs_name_lower(name, lower);
    const bool have = rs_name_skeleton(name, as_written) && rs_name_skeleton(lower, lowered);
    for (int i = 0; reserved_names[i]; i++) {
        if (strcasecmp(name, reserved_names[i]) == 0)
            return true;
        if (have && rs_name_skeleton(reserved_names[i], other) &&
            (strcmp(as_written, other) == 0 || strcmp(lowered, other) == 0))
            return true;
    }
    return false;
}

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
    if (reserved(name))
        return "that name is reserved, or looks like one that is (the computer's, or the "
               "site's)";
    return NULL;
}

void rs_secret_wipe(void *p, size_t n)
{
    sodium_memzero(p, n);
}
