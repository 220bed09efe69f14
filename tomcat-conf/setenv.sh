# Sourced by catalina.sh (installed as bin/setenv.sh by tomcat-conf/deploy, which appends the idiom.*
# properties of the run below this line).
# Heap: fixed size, so the saturation runs do not measure heap growth; 2 GB holds the default cache
# (10,000 DEs on heap) with room for 100k-DE seeds. G1: pauses stay short under the many small objects
# of request handling.
CATALINA_OPTS="${CATALINA_OPTS:-} -Xms2g -Xmx2g -XX:+UseG1GC -XX:MaxGCPauseMillis=50 -Djava.security.egd=file:/dev/urandom"
# Ehcache and Axiom still use sun.misc.Unsafe; JDK 24+ warns on every start without this
if [ "$("$JAVA_HOME/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = \([0-9]*\).*/\1/p')" -ge 24 ] 2>/dev/null; then
  CATALINA_OPTS="$CATALINA_OPTS --sun-misc-unsafe-memory-access=allow"
fi
