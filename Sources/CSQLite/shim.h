// The system SQLite library (apt libsqlite3-dev on Linux, the SDK's on macOS) for FMHistory.
#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift cannot import: this
// inline function hands it over so bound text and blobs are copied before sqlite3_bind_* returns.
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }
