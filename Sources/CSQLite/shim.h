#include <sqlite3.h>

/* sqlite3_config is variadic, which Swift cannot call: one typed wrapper per option OwnerDash sets. */

/* Turns off SQLite's memory statistics, which every allocation updates under one process-wide mutex: with several
   connections reading on several threads that mutex is contended on each row. Must run before sqlite3_initialize
   (SQLITE_MISUSE after). */
static inline int ownerdash_sqlite3_config_memstatus(int on) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, on);
}
