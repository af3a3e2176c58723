#!/bin/sh
# apt-get update, tried again when a mirror is caught mid-sync (one index
# "has unexpected size"): the next try usually finds it whole. After the
# last try the indexes that did arrive are used, and the install that
# follows says whether they were enough.
tries=0
until DEBIAN_FRONTEND=noninteractive apt-get update -qq; do
	tries=$((tries + 1))
	if [ "$tries" -ge 3 ]; then
		echo "apt-update.sh: warning: apt-get update failed $tries times; going on with the indexes it has" >&2
		exit 0
	fi
	sleep $((tries * 20))
done
