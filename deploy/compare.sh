#!/usr/bin/env bash
# Compares the `games` tables of two arena databases in every column but
# `micros` (the time a game took, which no two runs share):
#
#   deploy/compare.sh MERGED.db ONE.db
#
# Prints the columns and the rows compared, then "same table: yes" and exits
# 0, or "same table: NO", the first differing rows, and exits 1.
# The games' primary key (level, pairing, game) makes rows unique, so equal
# counts and no row on either side missing from the other is equality.
# Needs sqlite3. Used by deploy/slurm/one-node.sh and
# deploy/kubernetes/check-local.sh.
set -euo pipefail

if [[ $# -ne 2 ]]; then
  echo "usage: $0 MERGED.db ONE.db" >&2
  exit 2
fi
a=$1
b=$2
for db in "$a" "$b"; do
  [[ -f $db ]] || { echo "$db: no such file" >&2; exit 2; }
done

# The column list read from the database, so that a new column is compared too.
columns() {
  sqlite3 -readonly "$1" "SELECT group_concat(col, ', ') FROM (SELECT '\"' || replace(name, '\"', '\"\"') || '\"' AS col
    FROM pragma_table_info('games') WHERE name <> 'micros' ORDER BY cid)"
}
cols=$(columns "$a")
[[ -n $cols ]] || { echo "no games table in $a" >&2; exit 1; }
if [[ $cols != "$(columns "$b")" ]]; then
  echo "same table: NO (the columns differ: $cols / $(columns "$b"))"
  exit 1
fi

# A file name as an SQL string literal, for ATTACH.
quoted() { printf "'%s'" "${1//\'/\'\'}"; }
query() {
  sqlite3 -readonly -batch "$a" "ATTACH $(quoted "$b") AS b; $1"
}
rows_a=$(query "SELECT count(*) FROM main.games")
rows_b=$(query "SELECT count(*) FROM b.games")
only_a=$(query "SELECT count(*) FROM (SELECT $cols FROM main.games EXCEPT SELECT $cols FROM b.games)")
only_b=$(query "SELECT count(*) FROM (SELECT $cols FROM b.games EXCEPT SELECT $cols FROM main.games)")

echo "columns compared: $cols"
echo "rows: $rows_a in $a, $rows_b in $b"
if [[ $rows_a -gt 0 && $rows_a -eq $rows_b && $only_a -eq 0 && $only_b -eq 0 ]]; then
  echo "same table: yes"
  exit 0
fi
echo "same table: NO ($only_a rows only in $a, $only_b only in $b; the first of each:)"
query ".mode quote
  SELECT '<', * FROM (SELECT $cols FROM main.games EXCEPT SELECT $cols FROM b.games) LIMIT 5;
  SELECT '>', * FROM (SELECT $cols FROM b.games EXCEPT SELECT $cols FROM main.games) LIMIT 5;" | cut -c1-300
exit 1
