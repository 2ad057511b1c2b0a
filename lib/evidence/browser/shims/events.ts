// node:events for the browser verifier's bundle: the maintained browser port of Node's EventEmitter.
export { EventEmitter, once } from "events";
export { default } from "events";
