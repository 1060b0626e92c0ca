package protocols.motan;

import java.io.Serializable;

/** A Motan service of the tests' own, unrelated to the benchmark. */
public interface Calculator {

  int add(int a, int b);

  Greeting greet(Person person);

  /** Hessian2 carries Serializable classes by their fields. */
  final class Person implements Serializable {
    private static final long serialVersionUID = 1L;
    public String name;
    public int age;

    public Person() {}

    public Person(String name, int age) {
      this.name = name;
      this.age = age;
    }
  }

  final class Greeting implements Serializable {
    private static final long serialVersionUID = 1L;
    public String text;
    public boolean adult;
  }
}
