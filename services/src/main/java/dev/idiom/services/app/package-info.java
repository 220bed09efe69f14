/**
 * The application layer: Idiom's use cases (create, describe = MoreInfo, update = UpdateDE,
 * history, search, the change feed and the empty baseline), written once and called by both the
 * SOAP and the REST endpoints. Knows nothing of HTTP, SOAP or Tomcat.
 */
package dev.idiom.services.app;
