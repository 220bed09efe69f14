/**
 * The web application: what is mounted where ({@code /api} Jersey, {@code /services} Axis2,
 * {@code /admin}), the request-size guard, and the admin pages. The same registration serves the
 * embedded Tomcat and the WAR.
 */
package dev.idiom.services.web;
