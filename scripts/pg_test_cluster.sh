#!/usr/bin/env bash
# A throwaway PostgreSQL 15 cluster for running the tests by hand (scripts/test.sh starts its own):
#   eval "$(scripts/pg_test_cluster.sh start)"   # exports OWNERDASH_TEST_DATABASE_URL and OWNERDASH_TEST_PG_DIR
#   scripts/pg_test_cluster.sh stop "$OWNERDASH_TEST_PG_DIR"
# Only the export lines go to stdout; everything else goes to stderr.
set -euo pipefail
lib=$(cd "$(dirname "$0")/lib" && pwd)
source "$lib/ensure_packages.sh"
source "$lib/pg_test_cluster.sh"

usage() { echo "usage: $0 start | stop [DIR]" >&2; exit 2; }

[ $# -ge 1 ] || usage
case "$1" in
    start)
        [ $# -eq 1 ] || usage
        ensure_packages postgresql-15 libpq-dev >&2
        pg_test_cluster_start
        printf 'export OWNERDASH_TEST_DATABASE_URL=%q\n' "$OWNERDASH_TEST_DATABASE_URL"
        printf 'export OWNERDASH_TEST_PG_DIR=%q\n' "$OWNERDASH_TEST_PG_DIR"
        ;;
    stop)
        [ $# -le 2 ] || usage
        dir=${2:-${OWNERDASH_TEST_PG_DIR:-}}
        [ -n "$dir" ] || { echo "$0 stop: no DIR given and OWNERDASH_TEST_PG_DIR is not set" >&2; exit 2; }
        ensure_packages postgresql-15 libpq-dev >&2
        pg_test_cluster_stop "$dir"
        ;;
    *) usage ;;
esac
