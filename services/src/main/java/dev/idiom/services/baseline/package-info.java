/**
 * The saturation baselines (config {@code baseline}): a bare servlet and a bare Axis2 echo service
 * in the same container as Idiom, with none of Idiom's filters or code in their path, so a
 * saturation report can say what the container costs, what Axis2 adds, and what Idiom adds on top.
 */
package dev.idiom.services.baseline;
