/* auth.h — secrets for the server, all from libsodium: login tokens (random, sent once, stored
 * only as a hash), argon2id password hashes, invitation codes and the secret seed of each
 * online game; and the account rules from maintained libraries: libpwquality judges a new
 * password, ICU's spoof checker gives a name's confusable skeleton. rs_auth_init must run once
 * before any thread starts. */
#ifndef RS_AUTH_H
#define RS_AUTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RS_TOKEN_TEXT 48   /* 32 random bytes in URL-safe base64, with NUL */
#define RS_TOKEN_HASH 32   /* BLAKE2b of the token text */
#define RS_INVITE_TEXT 24  /* 16 random bytes in URL-safe base64, with NUL */
#define RS_PWHASH_TEXT 128 /* crypto_pwhash_STRBYTES */
#define RS_NAME_MIN 3
#define RS_NAME_MAX 20
#define RS_PASSWORD_MIN 8
#define RS_PASSWORD_MAX 128

/* sodium_init; false when the library cannot start (no entropy source). */
bool rs_auth_init(void);

/* A new login token / invitation code: URL-safe text. */
void rs_token_new(char out[RS_TOKEN_TEXT]);
void rs_invite_new(char out[RS_INVITE_TEXT]);
/* The stored form of a token: a hash, so a leaked database gives no usable token. */
void rs_token_hash(const char *token, size_t len, uint8_t out[RS_TOKEN_HASH]);
/* Constant-time comparison of two invitation codes (or any secrets of the same length). */
bool rs_secret_equal(const char *a, const char *b);

/* A seed no player can guess, for an online game's deal. */
uint64_t rs_seed_new(void);
/* A public commitment to a seed (hex of BLAKE2b-256 over its 8 little-endian bytes): shown at
 * the start, checkable against the record once the game is over. */
void rs_seed_commitment(uint64_t seed, char out[65]);

/* A guest's name: "guest-" and six random letters or digits. */
void rs_guest_name(char out[RS_NAME_MAX + 1]);

/* argon2id (libsodium's interactive cost). Slow and memory-hungry: call off the event loop. */
bool rs_password_hash(const char *password, char out[RS_PWHASH_TEXT]);
bool rs_password_verify(const char *stored, const char *password);

/* Debian's libpwquality at its built-in defaults (cracklib's dictionary check, palindromes,
 * too few kinds of character, the user's name inside it...; /etc/security/pwquality.conf is not
 * read, so every machine applies the same rule): false for a password it accepts, true with the
 * library's sentence in `why` for one it refuses. About 13 ms (cracklib reads its dictionary):
 * call off the event loop. Thread-safe (one check at a time). */
bool rs_password_weak(const char *password, const char *name, char *why, size_t why_size);

#define RS_SKELETON_TEXT 128 /* a name's skeleton: a few bytes for each of its characters */

/* The name's confusable skeleton (Unicode TS #39, ICU's uspoof_getSkeleton) in lower case: two
 * names with the same one look alike ("AIice" with a capital i and "Alice"; "C0mputer" and
 * "Computer"; "rn" and "m"). False when ICU cannot give one (out[0] is then ""). */
bool rs_name_skeleton(const char *name, char out[RS_SKELETON_TEXT]);

/* The name in lower case (at most RS_NAME_MAX bytes): how names are compared. */
void rs_name_lower(const char *name, char out[RS_NAME_MAX + 1]);

/* A name people may register: RS_NAME_MIN..RS_NAME_MAX of letters, digits, '-' and '_',
 * starting with a letter, not starting with "guest-", not the computer's or the site's, nor
 * one that looks like those (by skeleton). NULL when fine, else the reason. */
const char *rs_name_problem(const char *name);

/* Zero a secret in memory. */
void rs_secret_wipe(void *p, size_t n);

#endif
