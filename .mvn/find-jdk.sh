# Sourced by ./mvnw and ./idiom: exports JAVA_HOME pointing at a JDK >= 21.
# Order: $JAVA_HOME if it is new enough, else the newest JDK under /usr/lib/jvm
# (then /opt/java, ~/.sdkman/candidates/java). POSIX sh, because mvnw is.
idiom_jdk_major() {
  # prints the feature version of the JDK at $1, or nothing
  [ -x "$1/bin/java" ] && [ -x "$1/bin/javac" ] || return 0
  "$1/bin/java" -XshowSettings:properties -version 2>&1 \
    | sed -n 's/^ *java\.specification\.version = \(1\.\)\{0,1\}\([0-9]*\).*/\2/p' | head -n 1
}

idiom_find_jdk() {
  idiom_required=21
  if [ -n "${JAVA_HOME-}" ]; then
    idiom_major=$(idiom_jdk_major "$JAVA_HOME")
    if [ -n "$idiom_major" ] && [ "$idiom_major" -ge "$idiom_required" ]; then
      export JAVA_HOME
      return 0
    fi
    echo "idiom: JAVA_HOME=$JAVA_HOME is not a JDK >= $idiom_required (found: ${idiom_major:-none}); looking elsewhere" >&2
  fi
  idiom_best=""
  idiom_best_major=0
  # mvnw runs with `set -f`; globbing is needed here only.
  case $- in *f*) idiom_noglob=1; set +f ;; *) idiom_noglob=0 ;; esac
  for idiom_dir in /usr/lib/jvm/* /opt/java/* "$HOME"/.sdkman/candidates/java/*; do
    [ -d "$idiom_dir" ] || continue
    idiom_major=$(idiom_jdk_major "$idiom_dir")
    [ -n "$idiom_major" ] || continue
    if [ "$idiom_major" -gt "$idiom_best_major" ]; then
      idiom_best=$idiom_dir
      idiom_best_major=$idiom_major
    fi
  done
  [ "$idiom_noglob" = 1 ] && set -f
  if [ -n "$idiom_best" ] && [ "$idiom_best_major" -ge "$idiom_required" ]; then
    JAVA_HOME=$idiom_best
    export JAVA_HOME
    return 0
  fi
  echo "idiom: no JDK >= $idiom_required found." >&2
  echo "  Looked at \$JAVA_HOME and under /usr/lib/jvm, /opt/java, ~/.sdkman/candidates/java." >&2
  echo "  Install one (e.g. 'apt-get install openjdk-21-jdk' or a Temurin 21+ JDK) or set JAVA_HOME to it." >&2
  return 1
}
