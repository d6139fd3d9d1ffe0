#!/usr/bin/env bash
# Joins the shards deploy/shard.sh wrote into OUTDIR/all.db and prints the
# ratings. A Slurm job that waits for the whole array, the Kubernetes merge
# Job's command (deploy/kubernetes/merge-job.yaml), or run by hand:
#
#   sbatch --dependency=afterok:ARRAY_JOBID deploy/merge.sh ARENA.ron OUTDIR
#   deploy/merge.sh ARENA.ron OUTDIR
#
# Refuses unless OUTDIR holds all N shards of one split (shard-1-of-N.db ...
# shard-N-of-N.db): a missing shard would give ratings from part of the
# arena. Merging again is harmless: a game already in all.db is kept, one
# that disagrees is an error. The binary is $TABULA, else `tabula` on PATH.
#
#SBATCH --job-name=tabula-arena-merge
#SBATCH --cpus-per-task=1
#SBATCH --requeue
#SBATCH --open-mode=append
set -euo pipefail

if [[ $# -ne 2 ]]; then
  echo "usage: $0 ARENA.ron OUTDIR   (or with sbatch --dependency=afterok:JOBID)" >&2
  exit 2
fi
arena=$1
outdir=$2
[[ -f $arena ]] || { echo "$arena: no such arena file (in $PWD)" >&2; exit 2; }

shopt -s nullglob
shards=("$outdir"/shard-*-of-*.db)
if [[ ${#shards[@]} -eq 0 ]]; then
  echo "no shard-I-of-N.db in $outdir" >&2
  exit 1
fi
n=${shards[0]##*-of-}
n=${n%.db}
if [[ ! $n =~ ^[1-9][0-9]*$ ]]; then
  echo "cannot read N from ${shards[0]}" >&2
  exit 1
fi
ordered=()
for ((i = 1; i <= n; i++)); do
  [[ -f $outdir/shard-$i-of-$n.db ]] || { echo "$outdir/shard-$i-of-$n.db is missing" >&2; exit 1; }
  ordered+=("$outdir/shard-$i-of-$n.db")
done
if [[ ${#shards[@]} -ne $n ]]; then
  echo "$outdir holds shards of more than one split (${shards[*]}): expected $n" >&2
  exit 1
fi

exec "${TABULA:-tabula}" arena merge "$arena" --into "$outdir/all.db" "${ordered[@]}"
