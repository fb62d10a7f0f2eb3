#!/bin/sh
# A stand-in for kubectl: answers each call from the recorded answers in the folder $FAKE_KUBECTL_ANSWERS
# (<sha1 of the arguments>.out/.err/.code; --context and --request-timeout are not part of the key) and logs
# every call to $FAKE_KUBECTL_LOG. An unrecorded call fails loudly. Plain sh: a call costs milliseconds.
printf '%s\n' "$*" >> "$FAKE_KUBECTL_LOG"
context=""
key=""
while [ $# -gt 0 ]; do
  case "$1" in
    --context) context="$2"; shift 2; continue ;;
    --request-timeout=*) shift; continue ;;
  esac
  key="$key${key:+ }$1"
  shift
done
if [ -n "$context" ] && [ "$context" != "$(cat "$FAKE_KUBECTL_ANSWERS/context")" ]; then
  echo "error: context \"$context\" does not exist" >&2
  exit 1
fi
id=$(printf '%s' "$key" | sha1sum | cut -c1-40)
if [ ! -f "$FAKE_KUBECTL_ANSWERS/$id.code" ]; then
  echo "fake kubectl: no recorded answer for: $key" >&2
  exit 99
fi
cat "$FAKE_KUBECTL_ANSWERS/$id.out"
cat "$FAKE_KUBECTL_ANSWERS/$id.err" >&2
exit "$(cat "$FAKE_KUBECTL_ANSWERS/$id.code")"
