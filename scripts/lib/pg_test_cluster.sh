# shellcheck shell=bash
# A throwaway PostgreSQL 15 cluster for the test suite (Debian's postgresql-15). PostgreSQL refuses to run as root, so
# as root every initdb/pg_ctl call runs as the postgres user (runuser) in a directory that user owns.
#
# pg_test_cluster_start: initdb in a new temp dir, starts the server on a free 127.0.0.1 port (socket in the dir too),
#   creates the database ownerdash_test, and exports
#   OWNERDASH_TEST_DATABASE_URL=postgresql://postgres@127.0.0.1:PORT/ownerdash_test and OWNERDASH_TEST_PG_DIR=<dir>.
# pg_test_cluster_stop [DIR]: stops the cluster in DIR (default: the one this shell started) and removes DIR. Safe to
#   call twice, or when nothing was started.

pg_test_cluster_bin=/usr/lib/postgresql/15/bin
_pg_test_cluster_dir=""

# _pg_test_cluster_run DIR CMD...: runs CMD in DIR, as the postgres user when root, with no descriptor of the caller
# but stdin, stdout and stderr: the server pg_ctl starts outlives the caller, and a pipe it inherited (a test process's
# stdin to a helper it waits on to end) would never reach its end (a `swift test` once hung so).
_pg_test_cluster_run() {
    local dir=$1
    shift
    (
        local fd
        for fd in /proc/$BASHPID/fd/*; do
            fd=${fd##*/}
            if [ "$fd" -gt 2 ]; then eval "exec $fd>&-" 2>/dev/null; fi
        done
        cd "$dir" || exit 1
        if [ "$(id -u)" -eq 0 ]; then
            runuser -u postgres -- "$@"
        else
            "$@"
        fi
    )
}

# _pg_test_cluster_fail DIR MESSAGE [LOG...]: prints one line naming what failed and the logs' tails, stops and
# removes DIR.
_pg_test_cluster_fail() {
    local dir=$1 message=$2
    shift 2
    echo "pg_test_cluster: $message" >&2
    local log
    for log in "$@"; do
        [ -s "$log" ] || continue
        echo "--- tail of $log:" >&2
        tail -n 20 "$log" >&2
    done
    pg_test_cluster_stop "$dir"
    return 1
}

pg_test_cluster_start() {
    local bin=$pg_test_cluster_bin
    if [ ! -x "$bin/initdb" ] || [ ! -x "$bin/pg_ctl" ] || [ ! -x "$bin/createdb" ]; then
        echo "pg_test_cluster: PostgreSQL 15 binaries not found in $bin (install postgresql-15)" >&2
        return 1
    fi
    local as_root=false
    if [ "$(id -u)" -eq 0 ]; then
        as_root=true
        if ! command -v runuser >/dev/null 2>&1 || ! id postgres >/dev/null 2>&1; then
            echo "pg_test_cluster: running as root needs runuser and a postgres user" >&2
            return 1
        fi
    fi
    local dir
    # As root, /tmp (world-traversable) rather than $TMPDIR, which the postgres user may not reach.
    if $as_root; then
        dir=$(mktemp -d /tmp/ownerdash-pg.XXXXXX) || { echo "pg_test_cluster: mktemp failed" >&2; return 1; }
    else
        dir=$(mktemp -d "${TMPDIR:-/tmp}/ownerdash-pg.XXXXXX") || { echo "pg_test_cluster: mktemp failed" >&2; return 1; }
    fi
    _pg_test_cluster_dir=$dir
    if $as_root; then
        if ! chown postgres: "$dir" || ! runuser -u postgres -- test -w "$dir"; then
            _pg_test_cluster_fail "$dir" "the postgres user cannot use $dir"
            return 1
        fi
    fi

    if ! _pg_test_cluster_run "$dir" "$bin/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 \
        --no-sync >"$dir/initdb.log" 2>&1; then
        _pg_test_cluster_fail "$dir" "initdb failed in $dir/data" "$dir/initdb.log"
        return 1
    fi

    local port
    if ! port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'); then
        _pg_test_cluster_fail "$dir" "could not pick a free 127.0.0.1 port (python3)"
        return 1
    fi
    local options="-c listen_addresses=127.0.0.1 -p $port -k '$dir' -c fsync=off -c synchronous_commit=off"
    options+=" -c full_page_writes=off -c max_connections=100"
    if ! _pg_test_cluster_run "$dir" "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -o "$options" -w start \
        >"$dir/pg_ctl.log" 2>&1; then
        _pg_test_cluster_fail "$dir" "pg_ctl start failed (port $port)" "$dir/pg_ctl.log" "$dir/log"
        return 1
    fi
    if ! "$bin/createdb" -h 127.0.0.1 -p "$port" -U postgres ownerdash_test >"$dir/createdb.log" 2>&1; then
        _pg_test_cluster_fail "$dir" "createdb ownerdash_test failed (127.0.0.1:$port)" "$dir/createdb.log" "$dir/log"
        return 1
    fi
    export OWNERDASH_TEST_DATABASE_URL="postgresql://postgres@127.0.0.1:$port/ownerdash_test"
    export OWNERDASH_TEST_PG_DIR=$dir
}

pg_test_cluster_stop() {
    local dir=${1:-$_pg_test_cluster_dir}
    [ -n "$dir" ] || return 0
    [ "$dir" = "$_pg_test_cluster_dir" ] && _pg_test_cluster_dir=""
    if [ "${OWNERDASH_TEST_PG_DIR:-}" = "$dir" ]; then
        unset OWNERDASH_TEST_DATABASE_URL OWNERDASH_TEST_PG_DIR
    fi
    [ -d "$dir" ] || return 0
    # Refuse to remove anything that is not one of this script's directories.
    case "$(basename "$dir")" in
        ownerdash-pg.*) ;;
        *) echo "pg_test_cluster: not a test cluster directory: $dir" >&2; return 1 ;;
    esac
    if [ -f "$dir/data/postmaster.pid" ]; then
        local output
        if ! output=$(_pg_test_cluster_run "$dir" "$pg_test_cluster_bin/pg_ctl" -D "$dir/data" -m immediate stop 2>&1); then
            echo "pg_test_cluster: pg_ctl stop failed in $dir/data: $output" >&2
            [ -s "$dir/log" ] && tail -n 20 "$dir/log" >&2
        fi
    fi
    rm -rf "$dir"
    return 0
}
