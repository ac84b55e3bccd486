#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, from Debian's packages, to run the cluster recipes
# (study.sbatch, match.sbatch and their merges) for real.
#
#   experiments/cluster/slurm.sh start [DIR]   install slurm-wlm and munge where missing (needs
#                                              root and apt-get), write DIR/slurm.conf, start
#                                              munged, slurmctld and slurmd, wait until the node
#                                              is idle
#   experiments/cluster/slurm.sh stop [DIR]    stop them, leaving nothing running
#
# DIR (default /tmp/mancala-lab-slurm) holds the configuration, the munge key and socket, the
# daemons' state and logs. The node has this machine's cores; no cgroups, no accounting database.
# Slurm's commands find the cluster through SLURM_CONF: after `start`, run
# `export SLURM_CONF=DIR/slurm.conf` (start prints it).
set -euo pipefail

action="${1:-}"
dir="${2:-/tmp/mancala-lab-slurm}"
conf="$dir/slurm.conf"

install() {
    local missing=()
    command -v slurmctld >/dev/null 2>&1 || missing+=(slurmctld slurmd slurm-client)
    command -v munged >/dev/null 2>&1 || missing+=(munge)
    [ "${#missing[@]}" -eq 0 ] && return 0
    if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
        echo "slurm.sh: Slurm is not installed and cannot be installed here (needs root and apt-get)" >&2
        return 1
    fi
    echo "installing ${missing[*]} from Debian's packages"
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
}

# The pid recorded in FILE, if that process still runs.
running() {
    [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null
}

stop() {
    for daemon in slurmd slurmctld munged; do
        local pidfile="$dir/$daemon.pid"
        if running "$pidfile"; then
            kill "$(cat "$pidfile")"
            for _ in $(seq 50); do running "$pidfile" || break; sleep 0.2; done
            if running "$pidfile"; then kill -9 "$(cat "$pidfile")"; fi
        fi
        rm -f "$pidfile"
    done
    # Job steps the daemons left (slurmstepd of a killed job).
    pkill -f "slurmstepd.*" 2>/dev/null || true
}

start() {
    install
    stop
    rm -rf "$dir"
    mkdir -p "$dir/munge" "$dir/ctld" "$dir/spool"
    chmod 700 "$dir/munge"
    dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
    chmod 400 "$dir/munge/munge.key"
    local host cpus
    host="$(hostname -s)"
    cpus="$(nproc)"
    cat >"$conf" <<CONF
# One node, this machine: written by experiments/cluster/slurm.sh.
ClusterName=mancala-lab
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$dir/ctld
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
KillWait=10
MinJobAge=3600
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=main Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
    munged --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.socket" \
        --pid-file="$dir/munged.pid" --log-file="$dir/munged.log" --seed-file="$dir/munge/seed"
    export SLURM_CONF="$conf"
    slurmctld -f "$conf"
    slurmd -f "$conf"
    for _ in $(seq 60); do
        if sinfo -h -o '%T' 2>/dev/null | grep -qx idle; then
            echo "slurm: one node, $cpus CPUs, idle ($(sinfo -V)); export SLURM_CONF=$conf"
            return 0
        fi
        sleep 1
    done
    echo "slurm.sh: the node did not become idle within a minute; logs in $dir" >&2
    tail -20 "$dir/slurmctld.log" "$dir/slurmd.log" >&2 || true
    stop
    return 1
}

case "$action" in
start) start ;;
stop) stop ;;
*) echo "usage: experiments/cluster/slurm.sh start|stop [DIR]" >&2; exit 2 ;;
esac
