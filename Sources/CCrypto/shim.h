#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/crypto.h>
#include <openssl/err.h>

/* Everything OwnerDash calls in libcrypto is a plain function Swift can call directly (EVP_DigestVerify*, HMAC,
   RAND_bytes, d2i_PUBKEY, CRYPTO_memcmp); this header only gathers them. */
