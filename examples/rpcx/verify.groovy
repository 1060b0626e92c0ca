// not part of a user project: the outer build's check of this example's dependency list
evaluate(new File(basedir, '../../../src/it/check-dependencies.groovy'))
