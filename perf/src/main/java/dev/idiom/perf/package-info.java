/** Measuring Idiom from outside: the single-client latency probe over SOAP and REST. */
package dev.idiom.perf;
