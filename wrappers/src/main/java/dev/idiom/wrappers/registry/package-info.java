/** Which adapter serves each kind of tool account, and how an account of it is checked and opened. */
package dev.idiom.wrappers.registry;
