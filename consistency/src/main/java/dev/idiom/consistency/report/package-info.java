/**
 * What the consistency engine answers: the outcome of an import, a pull, a push, a sync or a
 * check, the consistency of each tool account, and the refusals the protocols turn into errors.
 * Values only, so REST, SOAP and the command line may read them without reaching the engine.
 */
package dev.idiom.consistency.report;
