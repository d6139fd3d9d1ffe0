#!/usr/bin/env bash
# Plays one shard of a tabula arena: a task of a Slurm job array, or a pod of
# a Kubernetes Indexed Job (deploy/kubernetes/arena-job.yaml).
#
#   sbatch --array=1-N [--cpus-per-task=C] deploy/shard.sh ARENA.ron OUTDIR
#   JOB_COMPLETION_INDEX=K deploy/shard.sh ARENA.ron OUTDIR N      (K from 0)
#
# Shard I of N (I from 1) runs
#   tabula arena ARENA.ron --shard I/N --db OUTDIR/shard-I-of-N.db --jobs J
# Under Slurm, I counts from 1 whatever the array's first index and N is the
# array's size (the array must be a plain range, e.g. 1-N or 0-(N-1), maybe
# with %limit); under Kubernetes I is JOB_COMPLETION_INDEX + 1 and N is the
# third argument, which must equal the Job's completions. J is $JOBS, else
# the task's CPUs under Slurm, else 1. The binary is $TABULA, else `tabula`
# on PATH. ARENA and OUTDIR are relative to the working directory; OUTDIR
# must be on a file system every node sees.
#
# A task killed, preempted or requeued starts again on the same database and
# goes on where it stopped: the games are written as they finish and the CLI
# resumes by itself. Then deploy/merge.sh joins the shards.
#
# Exit code 2 is a mistake in the arguments: retrying cannot help (the
# Kubernetes Job fails the index at once).
#
#SBATCH --job-name=tabula-arena
#SBATCH --cpus-per-task=1
#SBATCH --requeue
#SBATCH --open-mode=append
set -euo pipefail

usage() {
  echo "usage: sbatch --array=1-N $0 ARENA.ron OUTDIR" >&2
  echo "   or: JOB_COMPLETION_INDEX=K $0 ARENA.ron OUTDIR N" >&2
  exit 2
}
[[ $# -eq 2 || $# -eq 3 ]] || usage
arena=$1
outdir=$2
n=${3:-}
[[ -z $n || $n =~ ^[1-9][0-9]*$ ]] || usage
[[ -f $arena ]] || { echo "$arena: no such arena file (in $PWD)" >&2; exit 2; }

if [[ -n ${SLURM_ARRAY_TASK_ID:-} ]]; then
  count=${SLURM_ARRAY_TASK_COUNT:?}
  first=${SLURM_ARRAY_TASK_MIN:?}
  last=${SLURM_ARRAY_TASK_MAX:?}
  if ((last - first + 1 != count)); then
    echo "the array must be a plain range (e.g. --array=1-$count), not $count tasks in $first-$last" >&2
    exit 2
  fi
  if [[ -n $n && $n -ne $count ]]; then
    echo "N is $n but the array has $count tasks" >&2
    exit 2
  fi
  n=$count
  i=$((SLURM_ARRAY_TASK_ID - first + 1))
  where="Slurm task $SLURM_ARRAY_JOB_ID.$SLURM_ARRAY_TASK_ID, restart ${SLURM_RESTART_COUNT:-0}"
elif [[ -n ${JOB_COMPLETION_INDEX:-} ]]; then
  [[ -n $n ]] || usage
  if [[ ! $JOB_COMPLETION_INDEX =~ ^[0-9]+$ ]] || ((JOB_COMPLETION_INDEX >= n)); then
    echo "JOB_COMPLETION_INDEX=$JOB_COMPLETION_INDEX is not below N=$n: the Job's completions must be N" >&2
    exit 2
  fi
  i=$((JOB_COMPLETION_INDEX + 1))
  where="index $JOB_COMPLETION_INDEX"
else
  echo "neither a Slurm array task (SLURM_ARRAY_TASK_ID) nor an Indexed Job pod (JOB_COMPLETION_INDEX)" >&2
  usage
fi

jobs=${JOBS:-${SLURM_CPUS_PER_TASK:-1}}
mkdir -p "$outdir"
echo "shard $i/$n of $arena on $(hostname), $where"
exec "${TABULA:-tabula}" arena "$arena" --shard "$i/$n" --db "$outdir/shard-$i-of-$n.db" --jobs "$jobs"
