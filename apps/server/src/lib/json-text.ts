/**
 * Data a service hands over already serialized: JSON text of the shape its type parameter names,
 * which serveEndpoint sends inside the envelope as it is instead of serializing an object again.
 */
export class JsonText<T> {
  /** Only ties the text to the shape it stands for; never set. */
  declare readonly shape?: T;

  constructor(readonly text: string) {}
}
