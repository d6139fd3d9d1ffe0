#!/usr/bin/env bash
# Proves the Slurm scripts on this machine: starts a one-node Slurm cluster
# (munged, slurmctld and slurmd as plain daemons, no systemd, no cgroups,
# everything under a fresh directory in /tmp), plays ARENA as an N-task job
# array (deploy/shard.sh), merges the shards with a job that depends on the
# array (deploy/merge.sh), plays the same arena in one process, and checks
# with deploy/compare.sh that the two `games` tables are the same row for
# row in every column but `micros`. Prints the wall times, then stops the
# daemons and removes its directory, whatever happened.
#
#   deploy/slurm/one-node.sh [ARENA]          (default arenas/small.ron)
#
# Environment:
#   TABULA=/path/to/tabula   the binary; unset: `cargo build --locked` and
#                            ${CARGO_TARGET_DIR:-~/.cache/tabula-target}/debug/tabula
#   SHARDS=4                 the array's size
#   SLURMCTLD_PORT=6817 SLURMD_PORT=6818
#   KEEP=1                   keep the directory (databases, logs) to look at
#
# Needs root (the daemons run as root) and Debian's slurm-wlm, munge and
# sqlite3, installed with apt-get if missing. Uses its own munge key and
# socket, so a munge or Slurm already set up on the machine is not touched;
# the ports must be free. Takes about 12 s with arenas/small.ron on 2 cores
# (6 s more the first time, to install): too privileged for CI.
set -euo pipefail

script_t0=$EPOCHREALTIME
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
deploy=$(dirname "$here")
repo=$(dirname "$deploy")
arena=$(realpath "${1:-$repo/arenas/small.ron}")
shards=${SHARDS:-4}
ctld_port=${SLURMCTLD_PORT:-6817}
slurmd_port=${SLURMD_PORT:-6818}

[[ -f $arena ]] || { echo "$arena: no such arena file" >&2; exit 2; }
[[ $shards =~ ^[1-9][0-9]*$ ]] || { echo "SHARDS=$shards is not a positive number" >&2; exit 2; }
if [[ $(id -u) -ne 0 ]]; then
  echo "run as root: the Slurm and munge daemons run as root here" >&2
  exit 1
fi

if [[ -n ${TABULA:-} ]]; then
  tabula=$TABULA
else
  export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$HOME/.cache/tabula-target}
  (cd "$repo" && cargo build --locked --quiet)
  tabula=$CARGO_TARGET_DIR/debug/tabula
fi
tabula=$(realpath "$tabula")
[[ -x $tabula ]] || { echo "$tabula is not an executable" >&2; exit 1; }
export TABULA=$tabula # the jobs inherit it (sbatch --export=ALL)

missing=()
for cmd in munged mungekey slurmctld slurmd sbatch sqlite3; do
  command -v "$cmd" >/dev/null || missing+=("$cmd")
done
if [[ ${#missing[@]} -gt 0 ]]; then
  echo "installing slurm-wlm munge sqlite3 (missing: ${missing[*]})"
  t=$EPOCHREALTIME
  log=$(mktemp /tmp/tabula-slurm-apt.XXXXXX)
  if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge sqlite3; } >"$log" 2>&1; then
    tail -n 20 "$log" >&2
    rm -f "$log"
    echo "FAILED: apt-get install slurm-wlm munge sqlite3" >&2
    exit 1
  fi
  rm -f "$log"
  echo "installed in $(awk -v a="$t" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }') s"
fi

for port in "$ctld_port" "$slurmd_port"; do
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
    echo "port $port is in use (another Slurm?): set SLURMCTLD_PORT / SLURMD_PORT" >&2
    exit 1
  fi
done

work=$(mktemp -d /tmp/tabula-slurm.XXXXXX)
state=$work/state # the daemons' configuration, state, sockets and logs
out=$work/out     # the shards, databases and job logs
mkdir -p "$state/ctld" "$state/slurmd" "$out"
chmod 0755 "$work" "$state" # munged wants its socket's directories searchable by all
node=$(hostname -s)
export SLURM_CONF=$state/slurm.conf

now() { echo "$EPOCHREALTIME"; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'; }

pids=()     # daemons started, in order
job_ids=()  # Slurm jobs submitted
# Stops processes: SIGTERM, then SIGKILL after 5 s.
stop() {
  local pid
  [[ $# -gt 0 ]] || return 0
  kill "$@" 2>/dev/null
  for pid in "$@"; do
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$pid" 2>/dev/null && kill -9 "$pid" 2>/dev/null
  done
}
# Runs on every exit: cancels the jobs while slurmd can still kill them,
# stops the daemons, kills any process still using $work (a job
# whose slurmstepd outlived slurmd), then removes $work.
cleanup() {
  local status=$? t=$EPOCHREALTIME
  set +e
  trap - INT TERM
  if [[ ${#job_ids[@]} -gt 0 ]] && scontrol ping >/dev/null 2>&1; then
    scancel "${job_ids[@]}" 2>/dev/null
    for _ in $(seq 100); do
      [[ -z $(squeue -h -j "$(IFS=,; echo "${job_ids[*]}")" 2>/dev/null) ]] && break
      sleep 0.2
    done
  fi
  local pid args
  stop "${pids[@]}" # all at once: each takes a second or two, and the state is thrown away
  local left=()
  for pid in /proc/[0-9]*; do
    pid=${pid#/proc/}
    [[ $pid == "$$" || $pid == "$BASHPID" ]] && continue
    # Its command line or working directory in $work: ours, never anyone else's.
    mapfile -d '' args 2>/dev/null <"/proc/$pid/cmdline" || continue
    if [[ "${args[*]}" == *"$work"* || /proc/$pid/cwd -ef $out || /proc/$pid/cwd -ef $state ]]; then
      left+=("$pid")
    fi
  done
  if [[ ${#left[@]} -gt 0 ]]; then
    echo "killing leftover processes ${left[*]}" >&2
    kill -9 "${left[@]}" 2>/dev/null
  fi
  if [[ ${KEEP:-} == 1 ]]; then
    echo "kept $work"
  else
    rm -rf "$work"
  fi
  echo "daemons stopped in $(since "$t") s; whole script $(since "$script_t0") s$( ((status == 0)) || echo "; FAILED, exit $status")"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

fail() {
  echo "FAILED: $*" >&2
  exit 1
}
# Starts a daemon that forks and writes its pid file; remembers its pid.
start_daemon() {
  local name=$1 pidfile=$2 log=$3
  shift 3
  "$@" || { tail -n 20 "$log" >&2; fail "$name did not start"; }
  for _ in $(seq 50); do [[ -s $pidfile ]] && break; sleep 0.1; done
  [[ -s $pidfile ]] || { tail -n 20 "$log" >&2; fail "$name wrote no pid file"; }
  pids+=("$(cat "$pidfile")")
}
wait_for() {
  local what=$1 log=$2
  shift 2
  for _ in $(seq 150); do
    "$@" >/dev/null 2>&1 && return 0
    sleep 0.2
  done
  tail -n 20 "$log" >&2
  fail "$what"
}

daemons_t0=$(now)
# munge, with a key of its own and a socket in $state
mungekey --create --keyfile="$state/munge.key"
chmod 0400 "$state/munge.key"
start_daemon munged "$state/munged.pid" "$state/munged.log" \
  munged --key-file="$state/munge.key" --socket="$state/munge.socket" --pid-file="$state/munged.pid" \
  --log-file="$state/munged.log" --seed-file="$state/munged.seed"
wait_for "munge does not answer" "$state/munged.log" \
  bash -c "munge -n --socket='$state/munge.socket' | unmunge --socket='$state/munge.socket'"

cpus=$(nproc)
: >"$state/plugstack.conf" # none of /etc/slurm/plugstack.conf.d
cat >"$SLURM_CONF" <<EOF
# One node, generated by deploy/slurm/one-node.sh; gone when it ends.
ClusterName=tabula
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$state/munge.socket
StateSaveLocation=$state/ctld
SlurmdSpoolDir=$state/slurmd
SlurmctldPidFile=$state/slurmctld.pid
SlurmdPidFile=$state/slurmd.pid
SlurmctldLogFile=$state/slurmctld.log
SlurmdLogFile=$state/slurmd.log
PlugStackConfig=$state/plugstack.conf
# No systemd or cgroups here: track a job's processes through /proc.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SchedulerType=sched/backfill
# Start a job as soon as a CPU is free, not at the next 3 s batch tick:
# the runs timed here last seconds.
SchedulerParameters=batch_sched_delay=0
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MailProg=/bin/true
# Keep finished jobs' records 5 minutes, for afterok and their exit codes.
MinJobAge=300
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=one Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF

start_daemon slurmctld "$state/slurmctld.pid" "$state/slurmctld.log" slurmctld -f "$SLURM_CONF"
wait_for "slurmctld does not answer" "$state/slurmctld.log" scontrol ping
start_daemon slurmd "$state/slurmd.pid" "$state/slurmd.log" slurmd -f "$SLURM_CONF"
wait_for "node $node is not idle" "$state/slurmd.log" \
  bash -c "[[ \$(sinfo -h -n '$node' -o %T) == idle ]]"

# Prints the named fields of `scontrol -o show job` lines, a line a job.
fields() {
  awk -v names="$*" 'BEGIN { n = split(names, name, " ") }
    { delete f; for (i = 1; i <= NF; i++) { k = index($i, "="); if (k) f[substr($i, 1, k - 1)] = substr($i, k + 1) }
      line = " "; for (j = 1; j <= n; j++) if (name[j] in f) line = line " " name[j] "=" f[name[j]]
      print line }'
}
# Waits for a job (every task of an array) to end; fails unless all of it
# completed with exit code 0. Polls squeue every 0.2 s: sbatch --wait polls
# at up to 10 s, too coarse to time a run of seconds.
wait_job() {
  local id=$1 tasks=$2 lines line bad
  while [[ -n $(squeue -h -j "$id" 2>/dev/null) ]]; do sleep 0.2; done
  lines=$(scontrol -o show job "$id")
  bad=0
  while IFS= read -r line; do
    [[ $line == *" JobState=COMPLETED "* && $line == *" ExitCode=0:0 "* ]] || bad=1
  done <<<"$lines"
  if [[ $bad -ne 0 || $(wc -l <<<"$lines") -ne $tasks ]]; then
    fields JobId ArrayTaskId JobState ExitCode <<<"$lines" >&2
    for f in "$out"/*.out; do echo "== $f" >&2; tail -n 20 "$f" >&2; done
    fail "job $id did not complete"
  fi
}

# A first job: the cluster is up once it runs one (slurmctld schedules
# nothing in its first 3 s, which would be counted against the array).
warmup=$(sbatch --parsable --job-name=warm-up --chdir="$out" --output=/dev/null --wrap=true)
job_ids+=("$warmup")
wait_job "$warmup" 1
echo "slurm: one node $node, $cpus CPUs, up and ran a first job in $(since "$daemons_t0") s (state in $state)"

echo "arena: $arena"
echo "binary: $tabula"

t0=$(now)
array=$(sbatch --parsable --array="1-$shards" --chdir="$out" --output="$out/%x-%A_%a.out" \
  "$deploy/shard.sh" "$arena" "$out")
job_ids+=("$array")
wait_job "$array" "$shards"
array_time=$(since "$t0")
t1=$(now)
merge=$(sbatch --parsable --dependency="afterok:$array" --chdir="$out" --output="$out/%x-%j.out" \
  "$deploy/merge.sh" "$arena" "$out")
job_ids+=("$merge")
wait_job "$merge" 1
merge_time=$(since "$t1")
slurm_time=$(since "$t0")
scontrol -o show job "$array" | fields ArrayTaskId StartTime EndTime | sort -t= -k2n
grep -h ' games played in ' "$out"/tabula-arena-*_*.out | sed 's/^/  /' || true

t2=$(now)
"$tabula" arena "$arena" --db "$out/one.db" >"$out/one.out"
one_time=$(since "$t2")

echo
awk '/^Crosstable/ { exit } { print }' "$out"/tabula-arena-merge-*.out
echo "slurm: $shards-task array ${array_time} s (submit to all done), merge ${merge_time} s, total ${slurm_time} s"
echo "one process: ${one_time} s ($(head -n 1 "$out/one.out"))"
cd "$out"
"$deploy/compare.sh" all.db one.db
