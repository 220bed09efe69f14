/**
 * Starting Idiom: configuration, the one place where everything is wired ({@link dev.idiom.services.Idiom}),
 * the embedded-Tomcat server, the command line ({@code serve}, {@code rebuild}) and the WAR's bootstrap.
 */
package dev.idiom.services;
