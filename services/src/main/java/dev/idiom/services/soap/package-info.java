/**
 * The SOAP endpoint on Apache Axis2: {@code DigitalEntityService}, document/literal from a
 * hand-written WSDL, a thin message receiver over the application layer, SOAP faults with stable
 * codes. Axiom and Axis2 types stay in this package.
 */
package dev.idiom.services.soap;
